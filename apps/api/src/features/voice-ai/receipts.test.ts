import { receiptPathOf } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { deliverSigned, sandboxCheckout, sandboxPurchase, stripeEvent } from '../../../test/payment-webhooks';
import { pdfText as textOf } from '../../../test/pdf-text';
import { deriveSandboxWebhookSecret, sandboxSessionIdOf } from '../../dev/stripe-sandbox/provider';
import { PURCHASE_MAIL_JOB } from './purchase-mail';
import { RECEIPT_TEXT, receiptDate } from './receipt-pdf';
import { receiptOf } from './receipts';

/**
 * Receipts of card purchases (docs/decisions/0058-receipts.md): the PDF made from the payment's
 * rows, read back as text; who may have it; the purchase history's link; the purchase mail's
 * attachment. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const SELLER = {
  RECEIPT_SELLER_NAME: 'Sonarworks Test Seller',
  RECEIPT_SELLER_ADDRESS: 'Baznīcas iela 1; Riga LV-1010; Latvia',
  RECEIPT_SELLER_TAX_ID: 'LV00000000000',
};

const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET, ...SELLER });
});
afterAll(() => t.close());

const receipt = (invoiceTag: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: receiptPathOf(invoiceTag), headers });

/** A customer with a billing address on the profile who bought the 1,000-token pack (9.99 USD). */
async function buyer(email: string) {
  const token = await signUpVerified(t, email);
  const address = await t.call(
    '/api/accounts/UpdateUserDetails',
    { addressLine1: '1 Abbey Road', city: 'London', state: 'Greater London', postalCode: 'NW8 9AY', country: 'GB' },
    token,
  );
  expect(address.statusCode).toBe(200);
  const { invoiceTag } = await sandboxPurchase(t, token);
  return { token, invoiceTag, paidAt: t.clock.now() };
}

describe('a card purchase has a receipt', () => {
  it('the PDF names seller, buyer and billing address, item, quantity, amount, tax, invoice number and payment date', async () => {
    const { token, invoiceTag, paidAt } = await buyer('receipt.reader@example.com');
    const res = await receipt(invoiceTag, { authtoken: token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain(`attachment; filename="receipt-${invoiceTag}.pdf"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const text = await textOf(res.rawPayload);
    const lines = text.split('\n').map((line) => line.trim());
    expect(lines).toContain(RECEIPT_TEXT.title);
    expect(lines).toContain(`${RECEIPT_TEXT.invoiceNumber}: ${invoiceTag}`);
    expect(lines).toContain(`${RECEIPT_TEXT.paymentDate}: ${receiptDate(paidAt)}`);
    // Seller from RECEIPT_SELLER_* (ī, outside Helvetica's encoding, loses its accent).
    for (const line of [
      'Sonarworks Test Seller',
      'Baznicas iela 1',
      'Riga LV-1010',
      'Latvia',
      'VAT ID: LV00000000000',
    ]) {
      expect(lines).toContain(line);
    }
    // Buyer: the account's address and its profile address.
    for (const line of ['receipt.reader@example.com', '1 Abbey Road', 'NW8 9AY London', 'Greater London', 'GB']) {
      expect(lines).toContain(line);
    }
    // Item, quantity, unit price and amount in the currency paid; the totals add up.
    expect(lines).toContain('Starter (1,000 voice AI tokens) 1 9.99 USD 9.99 USD');
    expect(lines).toContain(`${RECEIPT_TEXT.tax}: 0.00 USD (${RECEIPT_TEXT.taxNote})`);
    expect(lines).toContain(`${RECEIPT_TEXT.total}: 9.99 USD`);
    expect(text).not.toContain(RECEIPT_TEXT.refunded);
  });

  it('renders the same bytes every time, whenever it is asked for (the document dates are the payment date)', async () => {
    const { token, invoiceTag } = await buyer('receipt.twice@example.com');
    const first = await receipt(invoiceTag, { authtoken: token });
    t.clock.advanceHours(50);
    const again = await receipt(invoiceTag, { authtoken: token });
    expect(again.statusCode).toBe(200);
    expect(Buffer.compare(first.rawPayload, again.rawPayload)).toBe(0);
  });

  it('keeps the seller and billing address of the day it was paid: a later profile or seller change leaves it as it was', async () => {
    const { token, invoiceTag } = await buyer('receipt.moved@example.com');
    const before = await receipt(invoiceTag, { authtoken: token });
    const moved = await t.call(
      '/api/accounts/UpdateUserDetails',
      { addressLine1: '2 Penny Lane', city: 'Liverpool', state: 'Merseyside', postalCode: 'L18 1DE', country: 'GB' },
      token,
    );
    expect(moved.statusCode).toBe(200);
    const after = await receipt(invoiceTag, { authtoken: token });
    expect(Buffer.compare(before.rawPayload, after.rawPayload)).toBe(0);
    const lines = (await textOf(after.rawPayload)).split('\n').map((line) => line.trim());
    expect(lines).toContain('1 Abbey Road');
    expect(lines).not.toContain('2 Penny Lane');
    // The seller moved or renamed itself since (a new RECEIPT_SELLER_*): this receipt still names the old one.
    const renamed = { name: 'Renamed Seller', address: ['Elsewhere 9'], taxId: undefined };
    const read = await receiptOf(t.database.db, renamed, invoiceTag);
    expect(read.seller).toEqual({
      name: 'Sonarworks Test Seller',
      address: ['Baznīcas iela 1', 'Riga LV-1010', 'Latvia'],
      taxId: 'LV00000000000',
    });
    expect(read.buyer).toEqual({
      email: 'receipt.moved@example.com',
      address: ['1 Abbey Road', 'NW8 9AY London', 'Greater London', 'GB'],
    });
  });

  it('a refund shows on the receipt: the amount refunded, when, and what is left paid', async () => {
    const { token, invoiceTag } = await buyer('receipt.refunded@example.com');
    t.clock.advanceHours(1);
    const refundedAt = t.clock.now();
    const refund = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/checkout/refund',
      headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
      payload: { invoiceTag, amountInCents: 400, reason: 'partial refund, ticket R-58' },
    });
    expect(refund.statusCode).toBe(200);
    const lines = (await textOf((await receipt(invoiceTag, { authtoken: token })).rawPayload)).split('\n');
    expect(lines).toContain(`${RECEIPT_TEXT.total}: 9.99 USD`);
    expect(lines).toContain(`${RECEIPT_TEXT.refunded}: 4.00 USD (${receiptDate(refundedAt)})`);
    expect(lines).toContain(`${RECEIPT_TEXT.net}: 5.99 USD`);
  });

  it('the purchase history links the receipt of a card purchase, not of a grant', async () => {
    const { token, invoiceTag } = await buyer('receipt.history@example.com');
    const granted = await t.app.inject({
      method: 'POST',
      url: '/api/admin/grant-tokens',
      headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
      payload: { email: 'receipt.history@example.com', amount: 50, reason: 'goodwill' },
    });
    expect(granted.statusCode).toBe(200);
    const items = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(items).toHaveLength(2);
    const purchase = items.find((item: { Type: string }) => item.Type === 'Purchased');
    const grant = items.find((item: { Type: string }) => item.Type === 'Granted');
    expect(purchase.ReceiptUrl).toBe(`http://localhost:3000${receiptPathOf(invoiceTag)}`);
    expect(grant).not.toHaveProperty('ReceiptUrl');
  });
});

describe('only the buyer gets the receipt', () => {
  it("another customer's, an unknown and an unpaid invoice tag are the same NotFound (ASVS 8.2.2)", async () => {
    const { invoiceTag } = await buyer('receipt.owner@example.com');
    const other = await signUpVerified(t, 'receipt.other@example.com');
    const theirs = await receipt(invoiceTag, { authtoken: other });
    const unknown = await receipt('inv_doesnotexist', { authtoken: other });
    const pending = await sandboxCheckout(t, other);
    const unpaid = await receipt(pending.invoiceTag, { authtoken: other });
    // An expired session has ended too, unpaid: no receipt either.
    const lapsed = await sandboxCheckout(t, other);
    const expiredEvent = stripeEvent(
      'evt_receipt_expired',
      'checkout.session.expired',
      { id: sandboxSessionIdOf(lapsed.clientSecret), object: 'checkout.session', status: 'expired' },
      t.clock.now(),
    );
    const delivered = await deliverSigned(t, expiredEvent, deriveSandboxWebhookSecret(SESSION_SECRET));
    expect(delivered.json().Result.Outcome).toBe('recorded');
    const expired = await receipt(lapsed.invoiceTag, { authtoken: other });
    const malformed = await t.app.inject({
      method: 'GET',
      url: '/api/voiceai/receipts/not-a-receipt.txt',
      headers: { authtoken: other },
    });
    for (const res of [theirs, unknown, unpaid, expired, malformed]) {
      expect(res.statusCode).toBe(404);
      expect(faultOf(res)).toBe('PaymentNotFound');
      expect(res.body).toBe(theirs.body);
    }
  });

  it('asks for a session: none is 401; the cookie alone counts, as a followed link carries no Software header (ASVS 3.5.1: a read)', async () => {
    const { token, invoiceTag } = await buyer('receipt.cookie@example.com');
    const anonymous = await receipt(invoiceTag, {});
    expect(anonymous.statusCode).toBe(401);
    expect(faultOf(anonymous)).toBe('SecurityAuthTokenNotPassed');
    const byCookie = await receipt(invoiceTag, { cookie: `soundid_session=${token}` });
    expect(byCookie.statusCode).toBe(200);
    expect(byCookie.headers['content-type']).toBe('application/pdf');
    const signedOut = await t.call('/api/accounts/Logout', {}, token);
    expect(signedOut.statusCode).toBe(200);
    expect((await receipt(invoiceTag, { cookie: `soundid_session=${token}` })).statusCode).toBe(401);
  });
});

describe('the purchase mail carries the receipt', () => {
  it('one mail per credited payment, made when it is sent, with the PDF attached and served by the dev mailbox', async () => {
    await t.services.jobs.drain(PURCHASE_MAIL_JOB);
    const email = 'receipt.mail@example.com';
    const { invoiceTag } = await buyer(email);
    expect(await t.mailsTo(email)).toHaveLength(1); // the verification mail only: the purchase mail is queued
    const sent = await t.services.jobs.drain(PURCHASE_MAIL_JOB);
    expect(sent).toEqual([{ sent: true }]);
    const [mail] = await t.mailsTo(email);
    if (!mail) throw new Error('no purchase mail');
    expect(mail.Subject).toBe('Your receipt for Starter (1,000 voice AI tokens)');
    expect(mail.Text).toContain(`invoice number ${invoiceTag}`);
    expect(mail.Attachments).toEqual([
      {
        FileName: `receipt-${invoiceTag}.pdf`,
        ContentType: 'application/pdf',
        SizeBytes: expect.any(Number),
        Url: expect.stringMatching(/^\/api\/dev\/mail\/\d+\/attachments\/0$/),
      },
    ]);
    const [attachment] = mail.Attachments;
    if (!attachment) throw new Error('no attachment');
    const file = await t.app.inject({ method: 'GET', url: attachment.Url });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.length).toBe(attachment.SizeBytes);
    expect(await textOf(file.rawPayload)).toContain(`${RECEIPT_TEXT.invoiceNumber}: ${invoiceTag}`);
    // Nothing more queued for it.
    expect(await t.services.jobs.drain(PURCHASE_MAIL_JOB)).toEqual([]);
  });
});
