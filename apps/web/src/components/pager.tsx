import { paginationWindow } from '@soundid/contracts';
import { pagerText } from '@soundid/contracts/ui-text';

/**
 * Page links: 3 each side of the current page, the first and the last, with ellipses.
 * While a page loads, clicks are ignored (spec: the pager is inert while loading).
 */
export function Pager({
  page,
  pageCount,
  isLoading,
  onPage,
}: {
  page: number;
  pageCount: number;
  isLoading: boolean;
  onPage: (page: number) => void;
}) {
  const go = (target: number) => {
    if (!isLoading && target !== page && target >= 1 && target <= pageCount) onPage(target);
  };
  return (
    <nav className="pager" aria-label={pagerText.label} aria-busy={isLoading || undefined}>
      <button type="button" className="pager__step" onClick={() => go(page - 1)} disabled={page <= 1}>
        <span aria-hidden="true">‹</span>
        <span className="visually-hidden">{pagerText.previous}</span>
      </button>
      {paginationWindow(page, pageCount).map((item, index) =>
        item === 'ellipsis' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the two ellipses differ only by place
          <span key={`ellipsis-${index}`} className="pager__ellipsis" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            key={item}
            type="button"
            className="pager__page"
            aria-label={pagerText.page(item)}
            aria-current={item === page ? 'page' : undefined}
            onClick={() => go(item)}
          >
            {item}
          </button>
        ),
      )}
      <button type="button" className="pager__step" onClick={() => go(page + 1)} disabled={page >= pageCount}>
        <span aria-hidden="true">›</span>
        <span className="visually-hidden">{pagerText.next}</span>
      </button>
    </nav>
  );
}
