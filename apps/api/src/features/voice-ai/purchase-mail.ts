import type { Database } from '../../db/client';
import type { JobDefinition } from '../../integrations/job-queue';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';
import { Fault } from '../../lib/fault';
import type { Mailer } from '../mail/mailer';
import { receiptAmount, receiptDate, renderReceiptPdf } from './receipt-pdf';
import { type Receipt, receiptFileName, receiptOf, type Seller } from './receipts';

/**
 * The purchase mail (docs/decisions/0058-receipts.md): a credited card payment queues it in the
 * transaction of its credit; the job makes the receipt from the payment's rows when it sends,
 * so the queue holds the invoice tag only, never the file.
 */
export const PURCHASE_MAIL_JOB = 'token-purchase-mail';

export interface PaidCheckout {
  invoiceTag: string;
  userId: string;
}

export function purchaseMail(receipt: Receipt, pdf: Buffer, publicUrl: string): OutgoingMail {
  return {
    ...renderMail({
      to: receipt.buyer.email,
      subject: `Your receipt for ${receipt.item}`,
      heading: 'Thank you for your purchase',
      intro: [
        `We received your payment of ${receiptAmount(receipt.amountInCents, receipt.currency)} on ${receiptDate(receipt.paidAt)} for ${receipt.item}.`,
        `Your receipt is attached (invoice number ${receipt.invoiceTag}); you can also download it from your purchase history.`,
      ],
      action: { label: 'Open your purchase history', link: `${publicUrl}/products/transactions` },
      outro: ['The tokens are in your account now: sign in to the plugin with this e-mail address to use them.'],
    }),
    attachments: [{ fileName: receiptFileName(receipt.invoiceTag), contentType: 'application/pdf', content: pdf }],
  };
}

export function purchaseMailJob(deps: {
  db: Database;
  seller: Seller;
  mailer: Mailer;
  publicUrl: string;
}): JobDefinition<PaidCheckout> {
  return {
    name: PURCHASE_MAIL_JOB,
    retryLimit: 5,
    run: async ({ invoiceTag, userId }) => {
      let receipt: Receipt;
      try {
        receipt = await receiptOf(deps.db, deps.seller, invoiceTag, userId);
      } catch (error) {
        // The account was deleted since (its payments with it): no one to send it to.
        if (error instanceof Fault && error.faultName === 'PaymentNotFound') return { sent: false };
        throw error;
      }
      const pdf = await renderReceiptPdf(receipt);
      await deps.mailer.send(purchaseMail(receipt, pdf, deps.publicUrl), { userId }, { onFailure: 'throw' });
      return { sent: true };
    },
  };
}
