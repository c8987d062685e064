import { redactUrl, SCROLL_TRACKING_DEBOUNCE_MS } from '@soundid/contracts';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { pushDataLayer } from '../lib/analytics';

/** Scroll depths (percent of the page seen) reported once each per page view. */
const SCROLL_DEPTHS = [25, 50, 75, 90] as const;

/**
 * Page views and scroll depth for the analytics data layer: docs/requirements.md §2 leaves /loading and the
 * not-found page untracked, and docs/requirements.md §9 debounces scroll tracking at 66 ms. The path goes without its
 * query and with a link's token redacted: the data layer is read by a third party's tag manager.
 */
export function usePageTracking(isTracked: boolean, title: string): void {
  const { pathname } = useLocation();
  useEffect(() => {
    if (!isTracked) return;
    const pagePath = redactUrl(pathname);
    pushDataLayer({ event: 'page_view', page_path: pagePath, page_title: title });

    const reached = new Set<number>();
    const measure = () => {
      const { scrollHeight } = document.documentElement;
      const percent = scrollHeight > 0 ? ((window.scrollY + window.innerHeight) / scrollHeight) * 100 : 100;
      for (const depth of SCROLL_DEPTHS) {
        if (percent < depth || reached.has(depth)) continue;
        reached.add(depth);
        pushDataLayer({ event: 'scroll', percent_scrolled: depth, page_path: pagePath });
      }
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const onScroll = () => {
      clearTimeout(timer);
      timer = setTimeout(measure, SCROLL_TRACKING_DEBOUNCE_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
  }, [isTracked, pathname, title]);
}
