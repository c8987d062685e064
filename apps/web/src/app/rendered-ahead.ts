/**
 * The pages the service renders ahead (server-entry.tsx, ADR 0024), by the name server-entry
 * gives them, with the modules their routes load on demand (router.tsx). The build writes each
 * page's chunks into the loader tag (vite.config.ts); the service hands the rendered page's list
 * to the loader (after-paint.ts), which fetches them beside the app's, so that the app does not
 * match the route table to find them in a task of its own (ADR 0043 addendum of 2026-11-29, the
 * second). router-modules.test.ts checks these lists against the route table.
 *
 * Plain data, without imports: vite.config.ts reads it too.
 */
export const RENDERED_AHEAD = {
  login: ['src/features/auth/components/login-screen.tsx'],
  products: ['src/app/query-layout.tsx', 'src/features/licences/components/products-screen.tsx'],
} as const satisfies Record<string, readonly string[]>;

export type RenderedAheadPage = keyof typeof RENDERED_AHEAD;

/** The loader tag's attribute that carries a page's list in the built index.html. */
export const screenModulesAttribute = (page: RenderedAheadPage) => `data-screen-${page}`;
