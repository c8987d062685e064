/** One webhook delivery as Shopify makes it: the raw body and the X-Shopify-* headers. */
export interface ShopifyWebhookDelivery {
  rawBody: Buffer;
  /** X-Shopify-Hmac-Sha256: base64 HMAC-SHA256 of rawBody. */
  hmac: string | undefined;
  /** X-Shopify-Topic, e.g. orders/paid. */
  topic: string | undefined;
  /** X-Shopify-Webhook-Id: the same on every retry of this delivery (the idempotency key). */
  webhookId: string | undefined;
  /** X-Shopify-Shop-Domain. */
  shopDomain: string | undefined;
}

/** The X-Shopify-* headers a delivery carries (names as Shopify sends them). */
export const SHOPIFY_WEBHOOK_HEADERS = {
  hmac: 'X-Shopify-Hmac-Sha256',
  topic: 'X-Shopify-Topic',
  webhookId: 'X-Shopify-Webhook-Id',
  eventId: 'X-Shopify-Event-Id',
  shopDomain: 'X-Shopify-Shop-Domain',
  apiVersion: 'X-Shopify-API-Version',
  triggeredAt: 'X-Shopify-Triggered-At',
} as const;

/** Reads a delivery from request headers (Node lower-cases their names). */
export function deliveryFromRequest(
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): ShopifyWebhookDelivery {
  const header = (name: string) => {
    const value = headers[name.toLowerCase()];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  return {
    rawBody,
    hmac: header(SHOPIFY_WEBHOOK_HEADERS.hmac),
    topic: header(SHOPIFY_WEBHOOK_HEADERS.topic),
    webhookId: header(SHOPIFY_WEBHOOK_HEADERS.webhookId),
    shopDomain: header(SHOPIFY_WEBHOOK_HEADERS.shopDomain),
  };
}
