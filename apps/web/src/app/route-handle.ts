export interface RouteAccess {
  allowAnonymousUser: boolean;
  allowAuthenticatedUser: boolean;
}

/** The guards treat these routes specially (docs/requirements.md §2). */
export type RouteKind = 'login' | 'loading' | 'launch';

/** Route metadata, in the route table's `handle`. */
export interface RouteHandle {
  title?: string;
  access?: Partial<RouteAccess>;
  kind?: RouteKind;
  /** Header and footer hidden: the waiting overlay screens. */
  hideShell?: boolean;
  hideSupportChat?: boolean;
  /** No page view or scroll depth in the analytics data layer (docs/requirements.md §2: loading, not-found). */
  untracked?: boolean;
}

export const anonymousOnly: Partial<RouteAccess> = { allowAnonymousUser: true, allowAuthenticatedUser: false };
export const everyone: Partial<RouteAccess> = { allowAnonymousUser: true, allowAuthenticatedUser: true };

const DEFAULT_ACCESS: RouteAccess = { allowAnonymousUser: false, allowAuthenticatedUser: true };

export type MergedHandle = RouteHandle & { access: RouteAccess; titles: string[] };

/** The deepest route's settings win; titles of all matched routes are kept for the page title. */
export function mergeHandles(handles: readonly unknown[]): MergedHandle {
  const merged: MergedHandle = { access: DEFAULT_ACCESS, titles: [] };
  for (const value of handles) {
    const handle = value as RouteHandle | undefined;
    if (!handle) continue;
    if (handle.title) merged.titles.push(handle.title);
    if (handle.access) merged.access = { ...DEFAULT_ACCESS, ...handle.access };
    if (handle.kind) merged.kind = handle.kind;
    if (handle.hideShell) merged.hideShell = true;
    if (handle.hideSupportChat) merged.hideSupportChat = true;
    if (handle.untracked) merged.untracked = true;
  }
  return merged;
}
