/** A first render loads the lazy screens; on a busy two-core machine that takes seconds. */
export const SCREEN_TEST_TIMEOUT_MS = 15_000;
