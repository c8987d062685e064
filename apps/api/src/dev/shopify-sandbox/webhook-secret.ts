import { createHmac } from 'node:crypto';

/**
 * The sandbox storefront's webhook secret, derived from the session secret: stable across
 * restarts and replicas without another file; the sandbox never runs in production.
 */
export function deriveSandboxShopifyWebhookSecret(sessionSecret: string): string {
  return `shpss_sandbox_${createHmac('sha256', sessionSecret).update('sandbox-shopify-webhook').digest('base64url')}`;
}
