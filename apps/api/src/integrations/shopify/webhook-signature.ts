import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Shopify signs each webhook delivery with HMAC-SHA256 over the raw request body, keyed with
 * the webhook secret, and sends it base64-encoded in X-Shopify-Hmac-Sha256. There is no signed
 * timestamp: replays are stopped by the webhook id (and the order id) instead.
 */
export function signShopifyWebhook(rawBody: Buffer, secret: string): string {
  return createHmac('sha256', secret).update(rawBody).digest('base64');
}

/** True only for the exact signature of these bytes under this secret (compared in constant time). */
export function isShopifyWebhookSignatureValid(rawBody: Buffer, header: string | undefined, secret: string): boolean {
  if (!header || !/^[A-Za-z0-9+/]{43}=$/.test(header.trim())) return false;
  const given = Buffer.from(header.trim(), 'base64');
  const expected = Buffer.from(signShopifyWebhook(rawBody, secret), 'base64');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
