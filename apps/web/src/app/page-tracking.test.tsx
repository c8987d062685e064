import { SCROLL_TRACKING_DEBOUNCE_MS } from '@soundid/contracts';
import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, testUser } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

type Pushed = { event: string } & Record<string, unknown>;
const pushed = (event: string) => ((window.dataLayer ?? []) as Pushed[]).filter((entry) => entry.event === event);

/** docs/requirements.md §2: /loading and not-found are not tracked; docs/requirements.md §9: scroll tracking is debounced at 66 ms. */
describe('page views in the analytics data layer', () => {
  it('records a page view with the page path and title', async () => {
    renderApp('/login', { user: null });
    await waitFor(() =>
      expect(pushed('page_view')).toEqual([
        { event: 'page_view', page_path: '/login', page_title: 'My SoundID | Log in' },
      ]),
    );
  });

  it('records each page navigated to', async () => {
    mockApi({ GetSessions: ok([]) });
    const { router } = renderApp('/profile', { user: testUser });
    await waitFor(() => expect(pushed('page_view').map((e) => e.page_path)).toEqual(['/profile']));
    await act(() => router.navigate('/add-license'));
    await waitFor(() => expect(pushed('page_view').map((e) => e.page_path)).toEqual(['/profile', '/add-license']));
  });

  it('keeps a link token out of the recorded path', async () => {
    renderApp('/reset-password/secret-link-token?x=1', { user: null });
    await waitFor(() => expect(pushed('page_view').map((e) => e.page_path)).toEqual(['/reset-password/[redacted]']));
    expect(JSON.stringify(window.dataLayer)).not.toContain('secret-link-token');
  });

  it('does not record a page the guards send the visitor away from, nor the not-found page', async () => {
    const { router } = renderApp('/profile', { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    await waitFor(() => expect(pushed('page_view').map((e) => e.page_path)).toEqual(['/login']));

    await act(() => router.navigate('/no/such/page'));
    await screen.findByText('Page not found');
    expect(pushed('page_view').map((e) => e.page_path)).toEqual(['/login']);
  });

  it('does not record the waiting overlay while the session is being settled', async () => {
    renderApp('/loading', { user: undefined });
    await waitFor(() => expect(document.title).toBe('My SoundID | Loading'));
    await screen.findByRole('status');
    expect(pushed('page_view')).toEqual([]);
  });
});

describe('scroll depth in the analytics data layer', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  /** jsdom lays nothing out: the page's height and the scroll position are set by hand. */
  function scrollTo(percent: number) {
    Object.defineProperty(document.documentElement, 'scrollHeight', { configurable: true, value: 4000 });
    Object.defineProperty(window, 'innerHeight', { configurable: true, value: 1000 });
    Object.defineProperty(window, 'scrollY', { configurable: true, value: (4000 * percent) / 100 - 1000 });
    window.dispatchEvent(new Event('scroll'));
  }

  it('records each depth once, 66 ms after the scrolling stops', async () => {
    renderApp('/login', { user: null });
    await waitFor(() => expect(pushed('page_view')).toHaveLength(1));
    vi.useFakeTimers();

    scrollTo(30);
    vi.advanceTimersByTime(SCROLL_TRACKING_DEBOUNCE_MS - 1);
    scrollTo(60);
    vi.advanceTimersByTime(SCROLL_TRACKING_DEBOUNCE_MS - 1);
    expect(pushed('scroll')).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(pushed('scroll')).toEqual([
      { event: 'scroll', percent_scrolled: 25, page_path: '/login' },
      { event: 'scroll', percent_scrolled: 50, page_path: '/login' },
    ]);

    scrollTo(40);
    scrollTo(100);
    vi.advanceTimersByTime(SCROLL_TRACKING_DEBOUNCE_MS);
    expect(pushed('scroll').map((e) => e.percent_scrolled)).toEqual([25, 50, 75, 90]);
  });
});
