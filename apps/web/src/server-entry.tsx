/**
 * The service's page renderer (ADR 0024): built by `vite build --ssr` into dist-server and
 * imported by the API, which calls `renderPage` for every page request.
 *
 * Every page gets the boot data (the public configuration, and whether the request came without
 * a session cookie) so that the SPA starts without asking for either. A visitor known to be
 * signed out who opens the sign-in screen also gets its HTML, which the SPA hydrates: the form
 * paints before any script has loaded.
 */
import { pageTitle } from '@soundid/contracts';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { matchRoutes } from 'react-router';
import { App } from './app/app';
import { type MergedHandle, mergeHandles } from './app/route-handle';
import { appRoutes } from './app/router';
import { type BootData, bootDataElement } from './config/boot-data';
import type { PublicConfig } from './config/public-config';
import { setAnonymous } from './lib/session';

export interface PageRequest {
  /** Path and query as requested. */
  url: string;
  /** Whether the request carried the session cookie (its validity is the SPA's question). */
  hasSessionCookie: boolean;
  config: PublicConfig;
}

/**
 * The screen rendered ahead: sign-in, the first screen of a signed-out visitor (its form takes
 * what was typed before the app started: login-form.tsx), and only when the URL carries nothing
 * the start-up consumes (a session `token`, saved `headers`), so that the SPA's first render is
 * this one.
 */
function rendersAhead(route: MergedHandle, url: URL, hasSessionCookie: boolean): boolean {
  if (hasSessionCookie || url.searchParams.has('token') || url.searchParams.has('headers')) return false;
  return route.kind === 'login';
}

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

async function renderScreen(location: string, config: PublicConfig): Promise<string> {
  // Rendered only for visitors known to be signed out (the store is this module's, not a customer's).
  setAnonymous();
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <App config={config} location={location} />
    </StrictMode>,
  );
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Preload hints for the app's modules, read off the loader tag (vite.config.ts): a page without a
 * rendered screen has nothing to paint first, so its app loads at once, in parallel.
 */
function appPreloads(template: string): string {
  const loader = /<script\b[^>]*\bid="app-loader"[^>]*>/.exec(template)?.[0] ?? '';
  const entry = /\bdata-entry="([^"]+)"/.exec(loader)?.[1];
  const preloads = /\bdata-preloads="([^"]*)"/.exec(loader)?.[1]?.split(' ') ?? [];
  return [entry, ...preloads]
    .filter(Boolean)
    .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)
    .join('');
}

/** index.html (the web build's) with the boot data and, where it applies, the screen's HTML. */
export async function renderPage(template: string, request: PageRequest): Promise<string> {
  const url = new URL(request.url, 'http://page.invalid');
  const boot: BootData = { config: request.config, signedOut: !request.hasSessionCookie };
  const route = mergeHandles((matchRoutes(appRoutes, url.pathname) ?? []).map((match) => match.route.handle));
  // The title the SPA sets (use-page-title.ts), there before it starts.
  const page = template.replace(/<title>[^<]*<\/title>/, `<title>${escapeText(pageTitle(route.titles))}</title>`);
  if (!rendersAhead(route, url, request.hasSessionCookie)) {
    return page.replace('</head>', `${appPreloads(template)}${bootDataElement(boot)}</head>`);
  }
  const html = await renderScreen(`${url.pathname}${url.search}`, request.config);
  return page
    .replace('</head>', `${bootDataElement(boot)}</head>`)
    .replace('<div id="root"></div>', `<div id="root">${html}</div>`);
}
