import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config';
import { isConsolePath } from './console-paths';

/** Script and frame origins of the social providers' sign-in scripts and popups. */
const PROVIDER_SCRIPTS = [
  'https://accounts.google.com',
  'https://appleid.cdn-apple.com',
  'https://connect.facebook.net',
];
const PROVIDER_FRAMES = ['https://accounts.google.com', 'https://appleid.apple.com', 'https://www.facebook.com'];
/**
 * What Stripe.js and its embedded Checkout need (Stripe's security guide, "Content security
 * policy": Stripe.js and Checkout), allowed only when Stripe is configured: the sandbox card
 * form is this origin's own. hooks.stripe.com frames 3-D Secure challenges.
 */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://checkout.stripe.com'],
  frame: [
    'https://js.stripe.com',
    'https://*.js.stripe.com',
    'https://hooks.stripe.com',
    'https://checkout.stripe.com',
  ],
  connect: ['https://api.stripe.com', 'https://checkout.stripe.com'],
};

/**
 * Strict headers on every response (CSP, nosniff, frame-ancestors none, HSTS over https), and
 * `Cache-Control: no-store` on every API answer. helmet decides the headers; they depend on the
 * configuration only (no nonces), so its middleware runs once at start-up and each request gets
 * the same headers in one `reply.headers` call: running it per request cost a tenth of a small
 * request's time (@fastify/helmet even rebuilds it, re-parsing the CSP, every time).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const headers = securityHeadersOf(config);
  const apiHeaders = { ...headers, 'cache-control': 'no-store' };
  const consoleHeaders = consoleSecurityHeadersOf(config);
  headersOf.set(app, headers);
  app.addHook('onRequest', (request, reply, done) => {
    const url = request.url;
    reply.headers(url.startsWith('/api/') ? apiHeaders : isConsolePath(url) ? consoleHeaders : headers);
    done();
  });
}

/** The portal's and the console's policies alike: no plugin, no base, forms to this origin, never framed. */
const sharedDirectives = (https: boolean) => ({
  objectSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  ...(https ? { upgradeInsecureRequests: [] } : {}),
});
const sharedOptions = (https: boolean) => ({
  hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : (false as const),
  crossOriginEmbedderPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' as const },
  frameguard: { action: 'deny' as const },
});

/**
 * The back-office console's headers (ADR 0047): stricter than the portal's, which must admit the
 * social providers, Stripe and the support chat. The console loads its own scripts and
 * stylesheet and calls its own origin, nothing else: no inline script or style, no frame, no
 * referrer (the invitation link carries its token in the path).
 */
export function consoleSecurityHeadersOf(config: Config): Record<string, string> {
  const https = config.publicUrl.startsWith('https://');
  return headersFromHelmet(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'"],
          // The QR code is drawn as SVG in the page; the tab's icon is an empty data: URL.
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameSrc: ["'none'"],
          workerSrc: ["'none'"],
          ...sharedDirectives(https),
        },
      },
      ...sharedOptions(https),
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      referrerPolicy: { policy: 'no-referrer' },
    }),
  );
}

/** The headers helmet sets for this configuration, by name. */
export function securityHeadersOf(config: Config): Record<string, string> {
  const https = config.publicUrl.startsWith('https://');
  const chat = config.supportChatScriptUrl ? [new URL(config.supportChatScriptUrl).origin] : [];
  // The buy page's Storefront API calls; the sandbox storefront is this origin.
  const shopify = config.shopify ? [`https://${config.shopify.storeDomain}`] : [];
  const stripe = config.stripe ? STRIPE : { script: [], frame: [], connect: [] };
  const middleware = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...PROVIDER_SCRIPTS, ...stripe.script, ...chat],
        styleSrc: ["'self'", "'unsafe-inline'", 'https://accounts.google.com'],
        imgSrc: ["'self'", 'data:', 'https:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'", 'https://accounts.google.com', ...stripe.connect, ...shopify, ...chat],
        frameSrc: ["'self'", ...PROVIDER_FRAMES, ...stripe.frame],
        ...sharedDirectives(https),
      },
    },
    ...sharedOptions(https),
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  });
  return headersFromHelmet(middleware);
}

/** The headers a helmet middleware sets, run once on a recorder (they depend on nothing per request). */
function headersFromHelmet(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let error: unknown;
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (e?: unknown) => {
    error = e;
  });
  if (error || !headers['content-security-policy']) throw new Error('helmet did not produce the security headers');
  return headers;
}

const headersOf = new WeakMap<FastifyInstance, Record<string, string>>();

/** The same headers on an answer that no hook sees (Fastify's refusals before routing). */
export function setSecurityHeaders(reply: FastifyReply): void {
  const headers = headersOf.get(reply.server);
  if (headers) reply.headers(headers);
}
