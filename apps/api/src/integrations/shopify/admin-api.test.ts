import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SHOPIFY_ADMIN_API_VERSION } from '@soundid/contracts';
import { type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Fault } from '../../lib/fault';
import { ShopifyAdminClient } from './admin-api';

/**
 * The production refund client against a local stand-in of Shopify's Admin GraphQL endpoint (no
 * internet): the path and version, the access token header, the documents it sends (parsed with
 * graphql-js) and what it makes of Shopify's answers.
 */
interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  operation: OperationDefinitionNode;
  variables: Record<string, unknown>;
}
type Answer = { status?: number; body: unknown };

let server: Server;
let baseUrl: string;
let received: Received[] = [];
/** What the stand-in answers, by the operation's name. */
let answers: Record<string, (variables: Record<string, unknown>) => Answer> = {};

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => {
      body += chunk;
    });
    req.on('end', () => {
      const { query, variables } = JSON.parse(body) as { query: string; variables: Record<string, unknown> };
      const operation = parse(query).definitions[0] as OperationDefinitionNode;
      received.push({ path: req.url ?? '', headers: req.headers, operation, variables });
      const answer = answers[operation.name?.value ?? '']?.(variables) ?? { status: 400, body: { errors: [] } };
      res.writeHead(answer.status ?? 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const ORDER = 'gid://shopify/Order/820982911946154508';
const VOICE = 'gid://shopify/Product/7981234567890';

/** An order with a line of another product and two licence lines (2 units, 1 of them refunded before; 1 unit). */
const refundableLines = () => ({
  body: {
    data: {
      order: {
        id: ORDER,
        lineItems: {
          nodes: [
            { id: 'gid://shopify/LineItem/1', refundableQuantity: 3, product: { id: 'gid://shopify/Product/1' } },
            { id: 'gid://shopify/LineItem/2', refundableQuantity: 1, product: { id: VOICE } },
            { id: 'gid://shopify/LineItem/3', refundableQuantity: 1, product: { id: VOICE } },
          ],
        },
      },
    },
  },
});
const suggested = () => ({
  body: {
    data: {
      order: {
        suggestedRefund: {
          suggestedTransactions: [
            {
              gateway: 'shopify_payments',
              parentTransaction: { id: 'gid://shopify/OrderTransaction/55' },
              amountSet: { shopMoney: { amount: '198.00', currencyCode: 'USD' } },
            },
          ],
        },
      },
    },
  },
});
const created = () => ({
  body: {
    data: {
      refundCreate: {
        refund: {
          id: 'gid://shopify/Refund/930000001',
          refundLineItems: {
            nodes: [
              { quantity: 1, lineItem: { id: 'gid://shopify/LineItem/2', product: { id: VOICE } } },
              { quantity: 1, lineItem: { id: 'gid://shopify/LineItem/3', product: { id: VOICE } } },
            ],
          },
        },
        userErrors: [],
      },
    },
  },
});

beforeEach(() => {
  received = [];
  answers = { RefundableLines: refundableLines, SuggestedRefund: suggested, RefundLicences: created };
});

const client = () =>
  new ShopifyAdminClient({
    storeDomain: 'soundid-store.myshopify.com',
    accessToken: 'shpat_0123456789abcdef0123456789abcdef',
    voiceAiProductIds: [VOICE],
    baseUrl,
  });
const request = {
  orderId: '820982911946154508',
  quantity: 2,
  idempotencyKey: 'refund-820982911946154508-T-1',
  note: 'by ann',
};

describe('ShopifyAdminClient.refundLicences against an Admin API stand-in', () => {
  it('reads the licence lines, asks for the suggested refund, then sends refundCreate with an idempotency key', async () => {
    const refund = await client().refundLicences(request);
    expect(refund).toEqual({
      id: '930000001',
      order_id: '820982911946154508',
      refund_line_items: [
        { quantity: 1, line_item: { product_id: '7981234567890' } },
        { quantity: 1, line_item: { product_id: '7981234567890' } },
      ],
    });
    expect(received.map((r) => r.operation.name?.value)).toEqual([
      'RefundableLines',
      'SuggestedRefund',
      'RefundLicences',
    ]);
    for (const r of received) {
      expect(r.path).toBe(`/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`);
      expect(r.headers['x-shopify-access-token']).toBe('shpat_0123456789abcdef0123456789abcdef');
      expect(r.headers['content-type']).toBe('application/json');
    }
    expect(received[0]?.variables).toEqual({ id: ORDER });
    // Only the licence lines, first lines first.
    const lines = [
      { lineItemId: 'gid://shopify/LineItem/2', quantity: 1 },
      { lineItemId: 'gid://shopify/LineItem/3', quantity: 1 },
    ];
    expect(received[1]?.variables).toEqual({ id: ORDER, lines });

    const mutation = received[2] as Received;
    expect(mutation.operation.operation).toBe('mutation');
    const field = mutation.operation.selectionSet.selections[0];
    expect(field?.kind === 'Field' && field.name.value).toBe('refundCreate');
    const directive = field?.kind === 'Field' ? field.directives?.[0] : undefined;
    expect(directive?.name.value).toBe('idempotent');
    expect(directive?.arguments?.[0]).toMatchObject({ name: { value: 'key' }, value: { name: { value: 'key' } } });
    expect(mutation.variables).toEqual({
      key: 'refund-820982911946154508-T-1',
      input: {
        orderId: ORDER,
        note: 'by ann',
        notify: true,
        refundLineItems: lines.map((line) => ({ ...line, restockType: 'NO_RESTOCK' })),
        transactions: [
          {
            orderId: ORDER,
            gateway: 'shopify_payments',
            kind: 'REFUND',
            amount: '198.00',
            parentId: 'gid://shopify/OrderTransaction/55',
          },
        ],
      },
    });
  });

  it('refuses more licences than are left before asking for any refund', async () => {
    const error = await client()
      .refundLicences({ ...request, quantity: 3 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Fault);
    expect(error).toMatchObject({ faultName: 'StorefrontRefundInvalid', variables: { RefundableQuantity: '2' } });
    expect(received).toHaveLength(1);
  });

  it("answers Shopify's userErrors as StorefrontRefundInvalid in its words, an unknown order as StorefrontOrderNotFound", async () => {
    answers.RefundLicences = () => ({
      body: {
        data: {
          refundCreate: { refund: null, userErrors: [{ field: ['transactions'], message: 'Amount is invalid.' }] },
        },
      },
    });
    await expect(client().refundLicences(request)).rejects.toMatchObject({
      faultName: 'StorefrontRefundInvalid',
      message: 'The store refused the refund: Amount is invalid. Nothing was refunded.',
    });
    answers.RefundableLines = () => ({ body: { data: { order: null } } });
    await expect(client().refundLicences(request)).rejects.toMatchObject({ faultName: 'StorefrontOrderNotFound' });
  });

  it('a refused token, a throttled request, GraphQL errors or no answer at all are StorefrontUnavailable', async () => {
    const failures: Answer[] = [
      { status: 401, body: { errors: '[API] Invalid API key or access token' } },
      { status: 429, body: { errors: 'Throttled' } },
      { body: { errors: [{ message: 'Access denied for refundCreate field.' }] } },
    ];
    for (const failure of failures) {
      answers.RefundableLines = () => failure;
      await expect(client().refundLicences(request), JSON.stringify(failure)).rejects.toMatchObject({
        faultName: 'StorefrontUnavailable',
      });
    }
    const closed = new ShopifyAdminClient({
      storeDomain: 'x',
      accessToken: 'y',
      voiceAiProductIds: [VOICE],
      baseUrl: 'http://127.0.0.1:9',
    });
    await expect(closed.refundLicences(request)).rejects.toMatchObject({ faultName: 'StorefrontUnavailable' });
  });
});
