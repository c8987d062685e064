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
  close(): Promise<void>;
}

/**
 * A local stand-in of the few Stripe API endpoints this service calls: the real stripe-node
 * SDK talks to it over http through its host, port and protocol options.
 */
export async function startStripeStandIn(): Promise<StripeStandIn> {
  const requests: RecordedRequest[] = [];
  const prices: Record<string, unknown>[] = [];
  let sessions = 0;

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
      send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${url.pathname})` } });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    prices,
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
