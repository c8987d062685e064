import type { PublicConfig } from './public-config';

/**
 * The interface between the service and the web build's page renderer (ADR 0024): the service
 * (apps/api/src/plugins/spa.ts) imports apps/web's server entry and calls `renderPage` for every
 * page request. Both sides take these types from here.
 */

/** The service's envelope as a page's in-process call answers it. */
export interface PageCallAnswer {
  Success: boolean;
  Result?: unknown;
}

export interface PageRequest {
  /** Path and query as requested. */
  url: string;
  /** Whether the request carried the session cookie (its validity is the service's question). */
  hasSessionCookie: boolean;
  config: PublicConfig;
  /**
   * Makes one of the service's calls with the page request's cookie and the given headers, in the
   * service's own process (only the paths of `pageRenderCalls`). Without it no signed-in screen is rendered.
   */
  call?: (path: string, body: unknown, headers: Record<string, string>) => Promise<PageCallAnswer>;
}

/** What the web build's server entry exports. */
export interface PageRenderer {
  renderPage(template: string, request: PageRequest): Promise<string>;
}
