import { CHECKOUT_METADATA_COOKIES, type KeyValue, POST_CHECKOUT_PATH } from '@soundid/contracts';
import { readCookie } from '../../lib/cookies';

/** Stripe metadata values are at most 500 characters. */
const METADATA_VALUE_MAX = 500;

/** The analytics and affiliate identifiers of this browser, from their cookies (docs/requirements.md §7). */
export function checkoutMetadata(): KeyValue[] {
  return CHECKOUT_METADATA_COOKIES.flatMap((name) => {
    const value = readCookie(name)?.trim();
    return value ? [{ Key: name, Value: value.slice(0, METADATA_VALUE_MAX) }] : [];
  });
}

/**
 * The return URL is sent only when this page is not on the main host (docs/requirements.md §7): a preview or
 * the Vite dev server gets the customer back to itself; the service checks it is allowed.
 */
export function checkoutReturnUrl(
  mainHost: string | undefined,
  location: Location = window.location,
): string | undefined {
  if (!mainHost || location.host === mainHost) return undefined;
  return `${location.origin}${POST_CHECKOUT_PATH}`;
}
