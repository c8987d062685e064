import {
  type CheckoutTokenBundle,
  POST_CHECKOUT_PATH,
  type PrepareTokenPurchaseCheckoutResult,
} from '@soundid/contracts';

/**
 * What the checkout screen needs (docs/requirements.md §2, voice-ai-checkout). It travels in the history
 * entry's state, not the URL: the client secret stays out of the address bar, server logs and
 * Referer headers, and a reload of the same entry still finds it.
 */
export interface CheckoutParams {
  stripePublicKey: string;
  checkoutSessionClientSecret: string;
  invoiceTag: string;
  tokenBundle: CheckoutTokenBundle;
}

export function checkoutParamsOf(prepared: PrepareTokenPurchaseCheckoutResult): CheckoutParams {
  return {
    stripePublicKey: prepared.StripePublicKey,
    checkoutSessionClientSecret: prepared.CheckoutSession,
    invoiceTag: prepared.InvoiceTag,
    tokenBundle: prepared.TokenBundle,
  };
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** The params from a location's state, or undefined when any is missing (then: back to the buy page). */
export function readCheckoutParams(state: unknown): CheckoutParams | undefined {
  if (!state || typeof state !== 'object') return undefined;
  const params = state as Partial<Record<keyof CheckoutParams, unknown>>;
  const bundle = params.tokenBundle as Partial<CheckoutTokenBundle> | undefined;
  const isBundle =
    Boolean(bundle) &&
    isText(bundle?.Title) &&
    isText(bundle?.Currency) &&
    typeof bundle?.PriceAmountInCents === 'number';
  if (
    !isText(params.stripePublicKey) ||
    !isText(params.checkoutSessionClientSecret) ||
    !isText(params.invoiceTag) ||
    !isBundle
  ) {
    return undefined;
  }
  return params as CheckoutParams;
}

export function postCheckoutUrl(invoiceTag: string): string {
  return `${POST_CHECKOUT_PATH}?invoice_tag=${encodeURIComponent(invoiceTag)}`;
}
