/**
 * The first thing the app runs (ADR 0026): it holds the page's uncaught errors and rejections
 * until the error reporter (error-reports.ts) has loaded, after the page's load event, and hands
 * them over. The reporter stays out of the script a page needs before it is interactive.
 */
export function captureErrors(load: () => Promise<{ startErrorReports(held: unknown[]): void }>): void {
  const held: unknown[] = [];
  const onError = (event: ErrorEvent) => held.push(event.error ?? event.message);
  const onRejection = (event: PromiseRejectionEvent) => held.push(event.reason);
  window.addEventListener('error', onError);
  window.addEventListener('unhandledrejection', onRejection);
  const start = () =>
    void load().then(
      (reports) => {
        window.removeEventListener('error', onError);
        window.removeEventListener('unhandledrejection', onRejection);
        reports.startErrorReports(held.splice(0));
      },
      // The reporter could not load (offline): nothing is reported, the page goes on.
      () => {},
    );
  // After a load event that has passed, in a task of its own: not in the one that evaluates the
  // app's modules, the page's longest (ADR 0043).
  if (document.readyState === 'complete') setTimeout(start);
  else window.addEventListener('load', start, { once: true });
}
