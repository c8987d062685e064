/**
 * React DOM's client, started in a module (and a chunk, vite.config.ts) of its own: evaluating
 * this module runs React DOM's module body, which the loader (after-paint.ts) then does in a task
 * of its own rather than inside the entry's (ADR 0043, third addendum). The entry imports React
 * DOM from here only.
 */
import * as ReactDomClient from 'react-dom/client';

export const { createRoot, hydrateRoot } = ReactDomClient;
