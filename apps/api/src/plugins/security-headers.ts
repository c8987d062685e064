import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config';

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
  headersOf.set(app, headers);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.url.startsWith('/api/') ? apiHeaders : headers);
    done();
  });
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
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
  });
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
