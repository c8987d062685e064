import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { pdfText as textOf } from '../../api/test/pdf-text';
import { createVerifiedAccount, type DevMail } from './accounts';
import { useBrowser } from './browser';
import { buyTokens, openBuyPage } from './checkout';

/**
 * A card purchase's receipt (docs/decisions/0058-receipts.md) in Chromium: bought with the
 * sandbox's test card, downloaded from the purchase history's Receipt link, read back as a PDF
 * that carries the invoice number; the purchase mail carries the same receipt.
 */
describe('receipts', () => {
  const browser = useBrowser();

  it('downloads the receipt of a card purchase from the purchase history: a PDF with the invoice number', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'receipt');
    const page = await browser.newPage();
    await openBuyPage(page, account);
    const invoiceTag = await buyTokens(page, 'Starter');

    await page.goto('/products/transactions');
    const table = page.getByRole('table');
    await table.getByRole('cell', { name: 'Purchased' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      table.getByRole('link', { name: /^Receipt of the purchase of .+ \(PDF\)$/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`receipt-${invoiceTag}.pdf`);
    const saved = await readFile(await download.path());
    expect(saved.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await textOf(saved);
    expect(text).toContain(`Invoice number: ${invoiceTag}`);
    expect(text).toContain(account.email);
    expect(text).toContain('Total paid: 9.99 USD');
    // The page stays where it was.
    expect(new URL(page.url()).pathname).toBe('/products/transactions');

    // The purchase mail (queued with the credit, sent by the job queue) carries the same receipt.
    let mail: (DevMail & { Attachments: { FileName: string; Url: string }[] }) | undefined;
    await expect
      .poll(
        async () => {
          const response = await fetch(`${browser.baseUrl}/api/dev/mail?to=${encodeURIComponent(account.email)}`);
          const mails = ((await response.json()) as { Result: NonNullable<typeof mail>[] }).Result;
          mail = mails.find((m) => m.Subject.startsWith('Your receipt for'));
          return mail?.Attachments.map((file) => file.FileName);
        },
        { timeout: 30_000, interval: 500 },
      )
      .toEqual([`receipt-${invoiceTag}.pdf`]);
    const attached = await fetch(`${browser.baseUrl}${mail?.Attachments[0]?.Url}`);
    expect(Buffer.from(await attached.arrayBuffer()).equals(saved)).toBe(true);
  });
});
