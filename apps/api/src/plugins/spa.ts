import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import { PAGE_RENDER_CALL_PATHS, type PageCallAnswer, type PageRenderer, type PublicConfig } from '@soundid/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Fault } from '../lib/fault';
import { CONSOLE_BASE, isConsolePath } from './console-paths';
import { sendFault } from './errors';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
// Pages are a few KiB: a middling brotli level costs well under a millisecond for them.
const BROTLI_PAGE = { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } };

async function loadRenderer(distDir: string): Promise<PageRenderer | undefined> {
  const entry = path.join(distDir, '..', 'dist-server', 'server-entry.js');
  if (!existsSync(entry)) return undefined;
  return (await import(pathToFileURL(entry).href)) as PageRenderer;
}

/**
 * Serves the built SPA with history fallback: a page route gets index.html, an unknown
 * /api path gets a JSON 404 Fault. When the web build has its page renderer, every page is
 * written per request (ADR 0024): the public configuration and whether a session cookie came go
 * into the page, and a signed-out visitor's sign-in screens come rendered.
 */
export interface SpaOptions {
  distDir: string | undefined;
  /** The back-office console's build (apps/console/dist), served under /console alone (ADR 0047). */
  consoleDistDir?: string | undefined;
  /** What the SPA is told before it renders (GET /api/config answers the same). */
  publicConfig: PublicConfig;
  /** Whether the request carries a session cookie (valid or not): the page renders signed in or out. */
  hasSessionCookie(request: FastifyRequest): boolean;
}

export async function registerSpa(app: FastifyInstance, options: SpaOptions): Promise<void> {
  const { distDir } = options;
  const hasSpa = distDir !== undefined && existsSync(path.join(distDir, 'index.html'));
  const renderer = hasSpa ? await loadRenderer(distDir) : undefined;
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: true,
      // With a renderer, / is a page like any other (below); without, the static index.html.
      index: renderer ? false : 'index.html',
      // The web build writes .br and .gz beside its files: served to browsers that take them.
      preCompressed: true,
      cacheControl: false,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  const consoleDir = options.consoleDistDir;
  const hasConsole = consoleDir !== undefined && existsSync(path.join(consoleDir, 'index.html'));
  if (hasConsole) {
    // The console's files under /console/ only: its bundle is never one of the portal's (ADR 0047).
    await app.register(fastifyStatic, {
      root: consoleDir,
      prefix: `${CONSOLE_BASE}/`,
      wildcard: true,
      index: false,
      preCompressed: true,
      cacheControl: false,
      // The portal's registration decorates the reply already when there is one.
      decorateReply: !hasSpa,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // Every console route is its index.html (the console routes in the browser).
  const sendConsole = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.header('Cache-Control', 'no-cache').type('text/html; charset=utf-8').sendFile('index.html', consoleDir);
  if (hasConsole) {
    app.get(CONSOLE_BASE, sendConsole);
    app.get(`${CONSOLE_BASE}/`, sendConsole);
  }
  const sendPage = renderer && distDir ? pageSender(app, renderer, distDir, options) : undefined;
  if (sendPage) app.get('/', sendPage);
  app.setNotFoundHandler((request, reply) => {
    const isRead = request.method === 'GET' || request.method === 'HEAD';
    // The console's missing assets are 404s, like the portal's.
    if (hasConsole && isRead && isConsolePath(request.url) && !request.url.startsWith(`${CONSOLE_BASE}/assets/`)) {
      return sendConsole(request, reply);
    }
    // A missing script or stylesheet is a 404, not the page (a browser would run HTML as script).
    const isPage =
      isRead && !request.url.startsWith('/api/') && !request.url.startsWith('/assets/') && !isConsolePath(request.url);
    if (hasSpa && isPage) {
      if (sendPage) return sendPage(request, reply);
      return reply.header('Cache-Control', 'no-cache').type('text/html').sendFile('index.html');
    }
    // Not kept by a CDN: a chunk missing for a moment of a rolling deploy is there a moment later.
    return sendFault(reply.header('Cache-Control', 'no-store'), new Fault('NotFound'));
  });
}

/**
 * One of the service's calls made for a page, in this process (`inject`): the same route, session
 * check, rate limits (by the page request's address) and envelope as over the network. The page
 * request's cookie goes with it; the renderer names the headers the SPA would send. Only the reads
 * of the contracts' `pageRenderCalls` are made this way (ADR 0024): a page request changes nothing.
 */
async function callInProcess(
  app: FastifyInstance,
  request: FastifyRequest,
  path: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<PageCallAnswer> {
  if (!PAGE_RENDER_CALL_PATHS.includes(path)) throw new Error(`A page may not make the call ${path}`);
  const answer = await app.inject({
    method: 'POST',
    url: path,
    payload: JSON.stringify(body),
    remoteAddress: request.ip,
    headers: {
      ...headers,
      'content-type': 'application/json',
      accept: 'application/json',
      cookie: request.headers.cookie ?? '',
      ...(request.headers['user-agent'] ? { 'user-agent': request.headers['user-agent'] } : {}),
    },
  });
  return answer.json<PageCallAnswer>();
}

/** Signed-out pages kept rendered, by address (a page without a session cookie depends on nothing else). */
const SIGNED_OUT_PAGES_KEPT = 256;

function pageSender(
  app: FastifyInstance,
  renderer: PageRenderer,
  distDir: string,
  { publicConfig: config, hasSessionCookie: cookieCame }: SpaOptions,
) {
  const template = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  // Oldest first: a flood of sign-in page requests renders each address once, and no more than
  // this many are kept however many addresses it makes up.
  const signedOutPages = new Map<string, string>();

  const render = async (request: FastifyRequest, hasSessionCookie: boolean): Promise<string> => {
    // A HEAD answer has no body: nothing to render, and no reads to make for it.
    if (request.method === 'HEAD') return template;
    const kept = hasSessionCookie ? undefined : signedOutPages.get(request.url);
    if (kept !== undefined) return kept;
    try {
      const html = await renderer.renderPage(template, {
        url: request.url,
        hasSessionCookie,
        config,
        call: (path, body, headers) => callInProcess(app, request, path, body, headers),
      });
      if (!hasSessionCookie) {
        if (signedOutPages.size >= SIGNED_OUT_PAGES_KEPT)
          signedOutPages.delete(signedOutPages.keys().next().value as string);
        signedOutPages.set(request.url, html);
      }
      return html;
    } catch (error) {
      // The SPA starts from the bare page as well: it asks for what the page would have said.
      request.log.error({ err: error }, 'page rendering failed; serving the bare page');
      return template;
    }
  };

  return async (request: FastifyRequest, reply: FastifyReply) => {
    const hasSessionCookie = cookieCame(request);
    const html = await render(request, hasSessionCookie);
    reply
      // A page for a signed-in customer may carry their data: never stored by a cache.
      .header('Cache-Control', hasSessionCookie ? 'no-store' : 'no-cache')
      // The page differs with and without the session cookie.
      .header('Vary', 'Cookie, Accept-Encoding')
      .type('text/html; charset=utf-8');
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    if (encoding === 'br') return reply.header('Content-Encoding', 'br').send(await brotli(html, BROTLI_PAGE));
    if (encoding === 'gzip') return reply.header('Content-Encoding', 'gzip').send(await gzipAsync(html));
    return reply.send(html);
  };
}
