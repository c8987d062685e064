import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the stand-in received: method, path, query and the form-encoded body. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  form: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export interface StripeStandIn {
  url: string;
  requests: RecordedRequest[];
  /** Prices GET /v1/prices answers (with their products expanded). */
  prices: Record<string, unknown>[];
  /**
   * The card payments POST /v1/refunds refunds, by payment intent: the charge's amount and
   * currency (what is refunded so far is kept here, as Stripe keeps it).
   */
  charges: Map<string, { amount: number; currency: string; refunded: number }>;
  close(): Promise<void>;
}

/**
 * A local stand-in of the few Stripe API endpoints this service calls (prices, checkout
 * sessions, refunds): the real stripe-node SDK talks to it over http through its host, port
 * and protocol options.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const prices: Record<string, unknown>[] = [];
  const charges: StripeStandIn['charges'] = new Map();
  /** Refund answers by Idempotency-Key: a repeated request gets the first answer, as from Stripe. */
  const refundsByKey = new Map<string, { amount: number }>();
  let sessions = 0;
  let refunds = 0;

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const form = new URLSearchParams(body);
      requests.push({
        method: req.method ?? '',
        path: url.pathname,
        query: url.searchParams,
        form,
        headers: req.headers,
      });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${requests.length}` });
        res.end(JSON.stringify(payload));
      };
      if (req.method === 'GET' && url.pathname === '/v1/prices') {
        return send(200, { object: 'list', data: prices, has_more: false, url: '/v1/prices' });
      }
      if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
        const price = form.get('line_items[0][price]');
        if (!prices.some((p) => p.id === price)) {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such price: '${price}'`,
              param: 'line_items[0][price]',
            },
          });
        }
        sessions += 1;
        const id = `cs_test_standin${sessions}`;
        return send(200, {
          id,
          object: 'checkout.session',
          client_secret: `${id}_secret_standin${sessions}`,
          client_reference_id: form.get('client_reference_id'),
          ui_mode: form.get('ui_mode'),
          mode: form.get('mode'),
          status: 'open',
          payment_status: 'unpaid',
          expires_at: Math.floor(Date.now() / 1000) + 24 * 3600,
          url: null,
        });
      }
      if (req.method === 'POST' && url.pathname === '/v1/refunds') {
        const key = String(req.headers['idempotency-key'] ?? '');
        const replay = refundsByKey.get(key);
        if (key && replay) {
          // Stripe replays a key's answer only for the same parameters (docs.stripe.com/idempotency).
          if (form.has('amount') && Number(form.get('amount')) !== replay.amount) {
            return send(400, {
              error: {
                type: 'idempotency_error',
                message:
                  'Keys for idempotent requests can only be used with the same parameters they were first used with.',
              },
            });
          }
          return send(200, replay);
        }
        const paymentIntent = form.get('payment_intent') ?? '';
        const charge = charges.get(paymentIntent);
        if (!charge) {
          return send(404, {
            error: {
              type: 'invalid_request_error',
              code: 'resource_missing',
              message: `No such payment_intent: '${paymentIntent}'`,
              param: 'payment_intent',
            },
          });
        }
        const left = charge.amount - charge.refunded;
        if (left === 0) {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              code: 'charge_already_refunded',
              message: `Charge for ${paymentIntent} has already been refunded.`,
            },
          });
        }
        const amount = form.has('amount') ? Number(form.get('amount')) : left;
        if (amount > left) {
          return send(400, {
            error: {
              type: 'invalid_request_error',
              message: `Refund amount is greater than unrefunded amount on charge (${left})`,
              param: 'amount',
            },
          });
        }
        charge.refunded += amount;
        refunds += 1;
        const refund = {
          id: `re_standin${refunds}`,
          object: 'refund',
          amount,
          currency: charge.currency,
          payment_intent: paymentIntent,
          status: 'succeeded',
          metadata: Object.fromEntries(
            [...form].flatMap(([k, v]) => (k.startsWith('metadata[') ? [[k.slice(9, -1), v]] : [])),
          ),
          charge: {
            id: `ch_${paymentIntent}`,
            object: 'charge',
            amount: charge.amount,
            amount_refunded: charge.refunded,
            currency: charge.currency,
            payment_intent: paymentIntent,
            refunded: charge.refunded === charge.amount,
          },
        };
        if (key) refundsByKey.set(key, refund);
        return send(200, refund);
      }
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    prices,
    charges,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** A one-time Price tagged as a token bundle, with its Product expanded. */
export function stripeBundlePrice(id: string, tokens: number, unitAmount: number, extra: Record<string, string> = {}) {
  return {
    id,
    object: 'price',
    active: true,
    type: 'one_time',
    currency: 'usd',
    unit_amount: unitAmount,
    nickname: null,
    metadata: { soundid_tokens: String(tokens), ...extra },
    product: {
      id: `prod_${id}`,
      object: 'product',
      active: true,
      name: `${tokens} VoiceAI tokens`,
      description: 'Tokens for SoundID VoiceAI',
      metadata: {},
    },
  };
}
