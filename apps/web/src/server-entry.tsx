/**
 * The service's page renderer (ADR 0024): built by `vite build --ssr` into dist-server and
 * imported by the API, which calls `renderPage` for every page request.
 *
 * Every page gets the boot data (the public configuration, and whether the request came without
 * a session cookie) so that the SPA starts without asking for either. Two screens come rendered,
 * for the SPA to hydrate, so that they paint before any script has loaded: sign-in for a visitor
 * known to be signed out, and Licenses & Devices for a signed-in customer, with the session's
 * user and the licence list read through the service's own calls.
 */
import { loginResultSchema, type PageRequest, pageRenderCalls, pageTitle, type User } from '@soundid/contracts';
import { dehydrate, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { matchRoutes } from 'react-router';
import { App } from './app/app';
import { RENDERED_AHEAD, type RenderedAheadPage, screenModulesAttribute } from './app/rendered-ahead';
import { type MergedHandle, mergeHandles } from './app/route-handle';
import { appRoutes } from './app/router';
import { type BootData, bootDataElement } from './config/boot-data';
import { BRANDING_HEADER, SOFTWARE_HEADER } from './config/client';
import type { PublicConfig } from './config/public-config';
import { accountLicencesQueryOptions } from './features/licences/api/get-account-licences';
import { createQueryClient } from './lib/react-query';
import { RenderedUserContext } from './lib/session';

/** The interface to the service (ADR 0024) is packages/contracts' page-render.ts. */
export type { PageCallAnswer as CallAnswer, PageRequest } from '@soundid/contracts';

/** A call whose answer a screen's first render reads from the query cache. */
interface ScreenQuery {
  queryKey: QueryKey;
  path: string;
}

/** Signed-in screens rendered with their data, by route path: what their first render reads. */
const SCREENS_WITH_DATA: Partial<Record<RenderedAheadPage, ScreenQuery[]>> = {
  products: [{ queryKey: accountLicencesQueryOptions().queryKey, path: pageRenderCalls.licences }],
};

const isScreenWithData = (path: string | undefined): path is RenderedAheadPage =>
  path !== undefined && Object.hasOwn(SCREENS_WITH_DATA, path);

const CALL_HEADERS = { Software: SOFTWARE_HEADER, Branding: BRANDING_HEADER };

/** A render waits this long at most for its screen's modules (loaded once per process). */
const RENDER_TIME_LIMIT_MS = 5000;

/** The URL carries something the start-up consumes (a session `token`, saved `headers`): not rendered ahead. */
const consumesStartupQuery = (url: URL) => url.searchParams.has('token') || url.searchParams.has('headers');

const escapeText = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');

interface Rendered {
  page: RenderedAheadPage;
  html: string;
  boot: BootData;
}

/**
 * One page's render. Renders of different customers run at once: the user comes by context and
 * the query cache is the render's own (never the browser's page-wide client or session store).
 */
async function renderScreen(
  location: string,
  config: PublicConfig,
  user: User | null,
  queryClient: QueryClient = createQueryClient(),
): Promise<string> {
  // React writes a boundary that failed (or was cut off) as "render in the browser" and carries
  // on; a page like that is no page rendered ahead, so the error goes to the service instead,
  // which logs it and sends the bare page (plugins/spa.ts).
  const errors: unknown[] = [];
  const signal = AbortSignal.timeout(RENDER_TIME_LIMIT_MS);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <RenderedUserContext value={user}>
        <App config={config} location={location} queryClient={queryClient} />
      </RenderedUserContext>
    </StrictMode>,
    { signal, onError: (error) => void errors.push(error) },
  );
  if (errors.length > 0) throw errors[0];
  if (signal.aborted) throw new Error(`Rendering ${location} took over ${RENDER_TIME_LIMIT_MS} ms`);
  const chunks: Buffer[] = [];
  for await (const chunk of prelude) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Sign-in, for a visitor without a session cookie: the form takes what was typed before the app
 * started (login-form.tsx).
 */
async function renderSignIn(location: string, config: PublicConfig): Promise<Rendered> {
  return { page: 'login', html: await renderScreen(location, config, null), boot: { config, signedOut: true } };
}

/**
 * A signed-in screen with its data: the session's user (LoginByToken, as the SPA's start-up
 * asks it) and the calls the screen reads. Any call refused (a session that has ended, a
 * failure) leaves the screen to the SPA, which asks again and shows the answer.
 */
async function renderWithData(
  page: RenderedAheadPage,
  location: string,
  request: PageRequest & { call: NonNullable<PageRequest['call']> },
  queries: ScreenQuery[],
): Promise<Rendered | undefined> {
  const { call, config } = request;
  const session = await call(pageRenderCalls.session, { getProfile: true }, CALL_HEADERS);
  if (!session.Success) return undefined;
  // Read through the call's result schema: the renderer names no result type of its own.
  const signedIn = loginResultSchema.safeParse(session.Result);
  if (!signedIn.success) return undefined;
  const user = signedIn.data.User;
  const answers = await Promise.all(queries.map((query) => call(query.path, {}, CALL_HEADERS)));
  if (answers.some((answer) => !answer.Success)) return undefined;
  const queryClient = createQueryClient();
  queries.forEach((query, i) => {
    queryClient.setQueryData(query.queryKey, answers[i]?.Result);
  });
  const html = await renderScreen(location, config, user, queryClient);
  const queriesState = dehydrate(queryClient);
  queryClient.clear();
  return { page, html, boot: { config, signedOut: false, user, queries: queriesState } };
}

async function renderAhead(route: MergedHandle, leafPath: string | undefined, url: URL, request: PageRequest) {
  if (consumesStartupQuery(url)) return undefined;
  const location = `${url.pathname}${url.search}`;
  if (!request.hasSessionCookie) {
    return route.kind === 'login' ? renderSignIn(location, request.config) : undefined;
  }
  if (!isScreenWithData(leafPath) || !request.call) return undefined;
  return renderWithData(leafPath, location, { ...request, call: request.call }, SCREENS_WITH_DATA[leafPath] ?? []);
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

/**
 * The loader tag names the modules of every page rendered ahead (vite.config.ts); the page sent
 * keeps the list of its own screen, if it has one, as `data-screen`, for the loader to fetch
 * beside the app (after-paint.ts, rendered-ahead.ts).
 */
function withScreenModules(template: string, page: RenderedAheadPage | undefined): string {
  return template.replace(/<script\b[^>]*\bid="app-loader"[^>]*>/, (loader) => {
    const own = page && new RegExp(`\\b${screenModulesAttribute(page)}="([^"]*)"`).exec(loader)?.[1];
    const others = (Object.keys(RENDERED_AHEAD) as RenderedAheadPage[]).reduce(
      (tag, key) => tag.replace(new RegExp(`\\s${screenModulesAttribute(key)}="[^"]*"`), ''),
      loader,
    );
    return own ? others.replace(/>$/, () => ` data-screen="${own}">`) : others;
  });
}

/** index.html (the web build's) with the boot data and, where it applies, the screen's HTML. */
export async function renderPage(built: string, request: PageRequest): Promise<string> {
  // Appended, not resolved: `//elsewhere/login` is a path here, as the browser's router sees it.
  const url = new URL(`http://page.invalid${request.url}`);
  const matches = matchRoutes(appRoutes, url.pathname) ?? [];
  const route = mergeHandles(matches.map((match) => match.route.handle));
  const rendered = await renderAhead(route, matches.at(-1)?.route.path, url, request);
  const template = withScreenModules(built, rendered?.page);
  // The title the SPA sets (use-page-title.ts), there before it starts.
  // Replacements are functions: a `$&` in a customer's data must stay text (String.replace).
  const page = template.replace(/<title>[^<]*<\/title>/, () => `<title>${escapeText(pageTitle(route.titles))}</title>`);
  if (!rendered) {
    const boot: BootData = { config: request.config, signedOut: !request.hasSessionCookie };
    return page.replace('</head>', () => `${appPreloads(template)}${bootDataElement(boot)}</head>`);
  }
  return page
    .replace('</head>', () => `${bootDataElement(rendered.boot)}</head>`)
    .replace('<div id="root"></div>', () => `<div id="root">${rendered.html}</div>`);
}
