import {
  faults,
  SANDBOX_STOREFRONT_GRAPHQL_PATH,
  STOREFRONT_ACCESS_TOKEN_HEADER,
  sandboxCheckoutText,
} from '@soundid/contracts';
import type { FastifyInstance, FastifyReply } from 'fastify';
import sjson from 'secure-json-parse';
import { z } from 'zod';
import { Fault } from '../../lib/fault';
import { toFault } from '../../plugins/errors';
import { SANDBOX_STOREFRONT_TOKEN } from './catalogue';
import { renderCheckoutPage, renderCheckoutProblemPage, renderThankYouPage } from './checkout-page';
import { badRequest, executeStorefrontRequest, INTERNAL_ERROR } from './graphql-endpoint';
import { type SandboxStorefront, sandboxCheckoutPath } from './storefront';

/** Where Cancel and "Return to the store" lead: the SPA's buy page. */
const STORE_PATH = '/products/voice-ai';
const PRODUCTS_PATH = '/products';
const FORM_BODY_LIMIT = 4 * 1024;
/** Faults the checkout page explains as they are; any other refusal shows as a link that does not work. */
const SHOWN_FAULTS = new Set<string>(['StorefrontCheckoutNotFound', 'StorefrontCartEmpty', 'ServiceUnavailable']);

/**
 * The sandbox storefront's HTTP surface (outside production, without SHOPIFY_*): Shopify's
 * Storefront GraphQL endpoint at its own path under /api/sandbox/shopify, and the checkout
 * page a cart's checkoutUrl opens. Both stand in for Shopify, so they answer in Shopify's
 * shapes (GraphQL, HTML) rather than in the envelope, and stay out of the OpenAPI document.
 */
export function sandboxStorefrontRoutes(store: SandboxStorefront, publicUrl: string) {
  return async (app: FastifyInstance) => {
    await app.register(storefrontGraphqlRoute(store));
    await app.register(checkoutPageRoutes(store, publicUrl));
  };
}

function storefrontGraphqlRoute(store: SandboxStorefront) {
  return async (app: FastifyInstance) => {
    // Bodies are parsed here, so that even a malformed one is answered in GraphQL's shape.
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.addContentTypeParser('application/graphql', { parseAs: 'string' }, (_request, body, done) =>
      done(null, { query: body }),
    );
    app.setErrorHandler((error, request, reply) => {
      const fault = toFault(error);
      if (fault.status >= 500) request.log.error({ err: error }, 'sandbox storefront request failed');
      if (fault.status < 500) return reply.code(400).send(badRequest(fault.message).body);
      return reply
        .code(500)
        .send({ errors: [{ message: INTERNAL_ERROR, extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    });

    app.post(SANDBOX_STOREFRONT_GRAPHQL_PATH, { schema: { hide: true } }, async (request, reply) => {
      const token = request.headers[STOREFRONT_ACCESS_TOKEN_HEADER.toLowerCase()];
      if (token !== SANDBOX_STOREFRONT_TOKEN) {
        const answer = badRequest('Unauthorized: a valid Storefront access token is required.', 401);
        return reply.code(answer.status).send(answer.body);
      }
      let body: unknown = request.body;
      if (typeof body === 'string') {
        try {
          body = sjson.parse(body, undefined, { protoAction: 'error', constructorAction: 'error' });
        } catch {
          const answer = badRequest('The request body is not valid JSON.');
          return reply.code(answer.status).send(answer.body);
        }
      }
      if (!body || typeof body !== 'object' || Array.isArray(body)) {
        const answer = badRequest('The request body must be a GraphQL request object.');
        return reply.code(answer.status).send(answer.body);
      }
      const answer = await executeStorefrontRequest(store, body, (error) =>
        request.log.error({ err: error }, 'sandbox storefront resolver failed'),
      );
      return reply.code(answer.status).send(answer.body);
    });
  };
}

const tokenParams = z.object({ token: z.string().max(64) });
const keyQuery = z.object({ key: z.string().max(64).default('') });
const payBody = z.object({ key: z.string().max(64).default(''), email: z.string().max(320).default('') });

/** A link or form that does not fit is a checkout that does not exist. */
function parseOrNotFound<T>(schema: z.ZodType<T>, value: unknown): T {
  const parsed = schema.safeParse(value ?? {});
  if (!parsed.success) throw new Fault('StorefrontCheckoutNotFound');
  return parsed.data;
}

function checkoutPageRoutes(store: SandboxStorefront, publicUrl: string) {
  const storeUrl = `${publicUrl}${STORE_PATH}`;
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(body);
  const problem = (reply: FastifyReply, fault: Fault) => {
    const title =
      fault.faultName === 'StorefrontCheckoutNotFound' ? sandboxCheckoutText.notFoundTitle : sandboxCheckoutText.title;
    return html(reply, fault.status, renderCheckoutProblemPage({ title, message: fault.message, storeUrl }));
  };

  return async (app: FastifyInstance) => {
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    app.setErrorHandler((error, request, reply) => {
      const fault = error instanceof Fault ? error : toFault(error);
      if (fault.status >= 500) request.log.error({ err: error }, 'sandbox checkout failed');
      // A malformed link reads, to the buyer, as a link that does not work.
      const shown = SHOWN_FAULTS.has(fault.faultName)
        ? fault
        : new Fault(fault.status >= 500 ? 'ServiceUnavailable' : 'StorefrontCheckoutNotFound');
      return problem(reply, shown);
    });

    app.get('/sandbox/shopify/cart/c/:token', { schema: { hide: true } }, async (request, reply) => {
      const { token } = parseOrNotFound(tokenParams, request.params);
      const { key } = parseOrNotFound(keyQuery, request.query);
      const state = await store.checkout(token, key);
      if (state.kind === 'ordered') {
        return html(
          reply,
          200,
          renderThankYouPage({ order: state.order, productsUrl: `${publicUrl}${PRODUCTS_PATH}` }),
        );
      }
      return html(
        reply,
        200,
        renderCheckoutPage({ cart: state.cart, key, payAction: `${sandboxCheckoutPath(token)}/pay`, storeUrl }),
      );
    });

    app.post('/sandbox/shopify/cart/c/:token/pay', { schema: { hide: true } }, async (request, reply) => {
      const { token } = parseOrNotFound(tokenParams, request.params);
      const { key, email } = parseOrNotFound(payBody, request.body);
      try {
        await store.pay(token, key, email);
      } catch (error) {
        if (!(error instanceof Fault) || error.faultName !== 'UserEmailInvalid') throw error;
        // The form again, with the reason next to the field.
        const state = await store.checkout(token, key);
        if (state.kind === 'ordered') return reply.redirect(store.checkoutUrl(token, key), 303);
        const payAction = `${sandboxCheckoutPath(token)}/pay`;
        const page = renderCheckoutPage({
          cart: state.cart,
          key,
          payAction,
          storeUrl,
          email,
          error: faults.UserEmailInvalid.message,
        });
        return html(reply, 400, page);
      }
      // Post/Redirect/Get: the checkout URL now shows the thank-you.
      return reply.redirect(store.checkoutUrl(token, key), 303);
    });
  };
}
