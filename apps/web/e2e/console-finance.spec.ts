import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { expectAccessible, useBrowser } from './browser';
import { buyTokens, openBuyPage } from './checkout';
import { adminPost } from './licences';
import { auditEntry, becomeOperator, consoleNav, cspViolations, openCustomer } from './operators';

/**
 * Finance's two changes to a customer's money in the back-office console (ADR 0032, 0045,
 * 0047), each by a finance operator invited and signed in as console.spec.ts walks it: a card
 * payment made in the sandbox checkout refunded, and tokens withdrawn. Each is confirmed in its
 * dialog with a reason, which the audit screen shows on the operator's entry; then the customer
 * sees the effect in the portal (the purchase refunded and its tokens gone; the balance lower).
 */
describe('the console: finance', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  /** A finance operator signed in on a new page, on their first screen. */
  async function financeOperator(): Promise<{ page: Page; email: string; refused: string[] }> {
    const page = await browser.newPage();
    const refused = cspViolations(page);
    const email = await becomeOperator(page, base, ['finance'], 'Fay Finance');
    expect(await consoleNav(page).getByRole('link').allTextContents()).toEqual([
      'Customers',
      'Payments',
      'Audit',
      'Releases',
      'My account',
    ]);
    return { page, email, refused };
  }

  /** The balance the customer's page states in its Voice AI tokens section. */
  const balanceOn = (page: Page) =>
    page.getByRole('region', { name: 'Voice AI tokens' }).getByRole('definition').first().textContent();

  it("refunds the sandbox checkout's card payment with a reason: the audit shows it, the purchase's tokens are gone", async () => {
    const customer = await createVerifiedAccount(base, 'refunded');
    const shop = await browser.newPage();
    await openBuyPage(shop, customer);
    const invoiceTag = await buyTokens(shop, 'Starter');

    const { page, email, refused } = await financeOperator();
    // Found by the invoice tag, as a customer's mail about a charge names it.
    await openCustomer(page, customer.email, { query: invoiceTag, lookIn: 'invoice' });
    const payments = page.getByRole('region', { name: 'Card payments' });
    const payment = payments.getByRole('row', { name: new RegExp(invoiceTag) });
    await payment.waitFor();
    expect(await payment.getByRole('cell').allTextContents()).toEqual([
      'Starter',
      '$9.99',
      '$0.00',
      'succeeded',
      expect.any(String),
      'Refund',
    ]);
    await expect.poll(() => balanceOn(page)).toBe('1000');
    await expectAccessible(page, 'console-customer-finance');

    await payment.getByRole('button', { name: `Refund payment ${invoiceTag}` }).click();
    const dialog = page.getByRole('dialog', { name: `Refund payment ${invoiceTag}` });
    await dialog.getByText('$9.99 can be refunded.', { exact: false }).waitFor();
    // No reason, no refund: the dialog says why and stays.
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await dialog.getByText('Give a reason of at least 3 characters').waitFor();
    await expectAccessible(page, 'console-refund-dialog');
    const reason = `Ticket 5150: ${invoiceTag} bought by mistake`;
    await dialog.getByLabel('Reason or ticket').fill(reason);
    await dialog.getByRole('button', { name: 'Refund' }).click();
    await page.getByRole('status').getByText(`Refund of ${invoiceTag} sent: $9.99 of $9.99 refunded.`).waitFor();
    expect(await dialog.count()).toBe(0);
    // The page read again: refunded in full, nothing left to refund, the tokens taken back.
    await expect.poll(() => payment.getByRole('cell').nth(2).textContent()).toBe('$9.99');
    expect(await payment.getByRole('button').count()).toBe(0);
    await expect.poll(() => balanceOn(page)).toBe('0');

    const entry = await auditEntry(page, 'AdminRefundPayment', email);
    await entry.getByText(reason).waitFor();
    expect(await entry.textContent()).toContain(customer.email);
    expect(await entry.getByRole('cell').nth(3).textContent()).toBe('done');
    expect(refused).toEqual([]);

    // The customer's purchase history: the purchase refunded, its 1,000 tokens withdrawn, none left.
    const portal = await browser.newPage();
    await signInByCookie(portal, base, customer, '/products/transactions');
    const purchase = portal.getByRole('row', { name: /Refunded \(1,000 tokens withdrawn\)/ });
    await purchase.waitFor();
    expect((await purchase.getByRole('cell').allTextContents()).slice(0, 2)).toEqual([
      '1,000',
      'Refunded (1,000 tokens withdrawn)',
    ]);
    expect(await purchase.getByRole('cell').nth(4).textContent()).toBe('0');
  });

  it("withdraws tokens from a customer with a reason: the audit shows it, the customer's balance is lower", async () => {
    const customer = await createVerifiedAccount(base, 'withdrawn');
    await adminPost(base, 'grant-tokens', { email: customer.email, amount: 1000 });

    const { page, email, refused } = await financeOperator();
    await openCustomer(page, customer.email);
    await expect.poll(() => balanceOn(page)).toBe('1000');

    await page.getByRole('button', { name: 'Withdraw tokens' }).click();
    const dialog = page.getByRole('dialog', { name: 'Withdraw tokens' });
    await dialog.getByLabel('Tokens').fill('300');
    await dialog.getByLabel('Reference (optional)').fill(`ticket-6021-${Date.now().toString(36)}`);
    const reason = 'Ticket 6021: tokens granted twice by mistake';
    await dialog.getByLabel('Reason or ticket').fill(reason);
    await dialog.getByRole('button', { name: 'Withdraw' }).click();
    await page.getByRole('status').getByText('300 tokens withdrawn; balance 700.').waitFor();
    await expect.poll(() => balanceOn(page)).toBe('700');

    const entry = await auditEntry(page, 'AdminWithdrawTokens', email);
    await entry.getByText(reason).waitFor();
    expect(await entry.textContent()).toContain(customer.email);
    expect(await entry.getByRole('cell').nth(3).textContent()).toBe('done');
    await expectAccessible(page, 'console-audit-finance');
    expect(refused).toEqual([]);

    // The customer's portal: 700 tokens on the buy page; the grant's row says what was withdrawn.
    const portal = await browser.newPage();
    await signInByCookie(portal, base, customer, '/products/voice-ai');
    await portal.getByText(/^Your tokens: 700 \(about .+ of processing\)\.$/).waitFor();
    await portal.goto('/products/transactions');
    const grant = portal.getByRole('row', { name: /Granted \(300 tokens withdrawn\)/ });
    await grant.waitFor();
    expect(await grant.getByRole('cell').nth(4).textContent()).toBe('700');
  });
});
