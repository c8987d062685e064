import type { Page } from 'playwright-core';
import { inject } from 'vitest';
import { signInByCookie } from './accounts';

/** Helpers of the specs that buy voice AI tokens as a customer does: the buy page and the sandbox's card form. */

/** The customer signed in by cookie on the voice AI buy page. */
export async function openBuyPage(page: Page, account: { email: string; password: string }): Promise<void> {
  await signInByCookie(page, inject('baseUrl'), account, '/products/voice-ai');
  await page.getByRole('heading', { level: 1, name: 'Choose Perpetual or Pay-as-you-go' }).waitFor();
}

/** A token bundle chosen on the buy page and paid for on the sandbox's card form with `cardNumber`. */
export async function payWithCard(page: Page, bundleTitle: string, cardNumber: string): Promise<void> {
  await page
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: bundleTitle }) })
    .getByRole('button', { name: 'Buy tokens' })
    .click();
  await page.getByRole('heading', { level: 1, name: 'Purchase tokens' }).waitFor();
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$/ }).click();
}

/**
 * A bundle paid for with the sandbox's card that pays (4242 4242 4242 4242), from the buy page:
 * the invoice tag of its checkout, once the post-checkout screen says the payment succeeded.
 */
export async function buyTokens(page: Page, bundleTitle: string): Promise<string> {
  await payWithCard(page, bundleTitle, '4242 4242 4242 4242');
  await page.waitForURL(/\/products\/post-checkout\?invoice_tag=inv_/);
  await page.getByRole('heading', { level: 1, name: 'Payment successful!' }).waitFor();
  const invoiceTag = new URL(page.url()).searchParams.get('invoice_tag');
  if (!invoiceTag) throw new Error('no invoice tag after the checkout');
  return invoiceTag;
}
