import { PAGINATION_WINDOW } from './constants';

/** Pager items: 3 pages each side of the current, plus first and last, with ellipses. */
export function paginationWindow(page: number, pageCount: number): (number | 'ellipsis')[] {
  const from = Math.max(1, page - PAGINATION_WINDOW);
  const to = Math.min(pageCount, page + PAGINATION_WINDOW);
  const items: (number | 'ellipsis')[] = [];
  if (from > 1) items.push(1);
  if (from > 2) items.push('ellipsis');
  for (let p = from; p <= to; p++) items.push(p);
  if (to < pageCount - 1) items.push('ellipsis');
  if (to < pageCount) items.push(pageCount);
  return items;
}
