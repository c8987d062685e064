/**
 * The one script index.html names (ADR 0024); the build writes the app's entry and the modules
 * it imports into this tag's data attributes instead of script and modulepreload tags.
 *
 * A page the service sent with its screen rendered is painted first and the app fetched after:
 * on a slow link the app's ~90 KiB would otherwise share the bandwidth with the stylesheet the
 * first paint waits for. A page without one (a signed-in screen) loads the app at once.
 */
const tag = document.getElementById('app-loader');
const entry = tag?.dataset.entry;
const preloads = tag?.dataset.preloads?.split(' ').filter(Boolean) ?? [];
/** A page that came rendered: its screen's modules and stylesheets (server-entry.tsx, rendered-ahead.ts). */
const screenFiles = tag?.dataset.screen?.split(' ').filter(Boolean) ?? [];

/** How long the app waits for a first paint that the browser does not report. */
const PAINT_WAIT_LIMIT_MS = 1000;

/**
 * Link elements added per task for a rendered page's screen: each one starts a fetch, a
 * millisecond or two of the main thread on the slow machine, so a screen's dozen or so come in
 * short tasks rather than one long one (ADR 0043 addendum).
 */
const SCREEN_LINKS_PER_TASK = 4;

let isLoading = false;

function preload(href: string): void {
  const link = document.createElement('link');
  // A stylesheet of the screen (a chunk's own CSS) is applied as Vite's loader would apply it.
  link.rel = href.endsWith('.css') ? 'stylesheet' : 'modulepreload';
  link.crossOrigin = '';
  link.href = href;
  document.head.append(link);
}

/** The screen's files, SCREEN_LINKS_PER_TASK to a task, from `from` on. */
function preloadScreen(from: number): void {
  for (const href of screenFiles.slice(from, from + SCREEN_LINKS_PER_TASK)) preload(href);
  if (from + SCREEN_LINKS_PER_TASK < screenFiles.length) setTimeout(preloadScreen, 0, from + SCREEN_LINKS_PER_TASK);
}

function loadApp(): void {
  if (isLoading) return;
  isLoading = true;
  for (const href of preloads) preload(href);
  if (screenFiles.length > 0) setTimeout(preloadScreen, 0, 0);
  void startApp();
}

/**
 * Evaluates the modules the app starts with one chunk per task (the libraries first, then the
 * app's shared code, then the entry) instead of all in the one task that a single import makes:
 * each is a short task a tap can come between, not one long one (ADR 0043 addendum). An import
 * evaluates what a chunk imports first, so the order of evaluation stays the modules' own.
 */
async function startApp(): Promise<void> {
  for (const href of preloads) {
    // A chunk that fails to load here fails the entry's import below too, as a single import did.
    await import(/* @vite-ignore */ href).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  if (entry) await import(/* @vite-ignore */ entry);
}

/** Calls back once the browser reports its first contentful paint (shown, not only drawn). */
function afterFirstPaint(callback: () => void): void {
  if (!PerformanceObserver.supportedEntryTypes?.includes('paint')) {
    requestAnimationFrame(() => setTimeout(callback, 0));
    return;
  }
  const observer = new PerformanceObserver((entries) => {
    if (!entries.getEntriesByName('first-contentful-paint').length) return;
    observer.disconnect();
    callback();
  });
  observer.observe({ type: 'paint', buffered: true });
}

// Enter in a sent form before the app has taken it over meets its disabled submit, and the
// browser sends nothing: noted on the form element itself (a property, not an attribute, which
// hydration would find extra), the sign-in form sends what was typed once hydrated
// (login-form.tsx). A form React draws later is a new element: no note outlives its form.
document.addEventListener('keydown', (event) => {
  const form = event.key === 'Enter' && event.target instanceof HTMLInputElement ? event.target.form : null;
  if (form && !form.querySelector('button[type="submit"]:enabled')) {
    (form as HTMLFormElement & { enterBeforeStart?: boolean }).enterBeforeStart = true;
  }
});

// A hidden tab paints nothing until it is shown: no reason to wait there. Nor longer than a
// moment in a browser that reports no paint.
const isRendered = Boolean(document.getElementById('root')?.firstElementChild);
if (isRendered && document.visibilityState === 'visible') {
  afterFirstPaint(loadApp);
  setTimeout(loadApp, PAINT_WAIT_LIMIT_MS);
} else {
  loadApp();
}

// A module (the loader tag is type="module"), which its test imports.
export {};
