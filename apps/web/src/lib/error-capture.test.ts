import { describe, expect, it, vi } from 'vitest';
import { captureErrors } from './error-capture';

describe('error capture before the reporter loads (ADR 0026)', () => {
  it('holds the errors and rejections raised before the reporter is there, and hands them over in order', async () => {
    let resolve!: (module: { startErrorReports(held: unknown[]): void }) => void;
    const load = vi.fn(() => new Promise<{ startErrorReports(held: unknown[]): void }>((r) => (resolve = r)));
    captureErrors(load);
    const early = new RangeError('early');
    window.dispatchEvent(new ErrorEvent('error', { error: early, message: 'early' }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.assign(rejection, { reason: 'rejected early' });
    window.dispatchEvent(rejection);
    // jsdom's document has loaded: the reporter is asked for in the next task, not in the one
    // that runs the app's modules (ADR 0043).
    expect(load).not.toHaveBeenCalled();
    await vi.waitFor(() => expect(load).toHaveBeenCalledTimes(1));
    const startErrorReports = vi.fn();
    const removed = vi.spyOn(window, 'removeEventListener');
    resolve({ startErrorReports });
    await vi.waitFor(() => expect(startErrorReports).toHaveBeenCalledWith([early, 'rejected early']));
    // Once handed over, the capture stops listening: what comes later is the reporter's.
    expect(removed.mock.calls.map(([type]) => type).sort()).toEqual(['error', 'unhandledrejection']);
    removed.mockRestore();
  });
});
