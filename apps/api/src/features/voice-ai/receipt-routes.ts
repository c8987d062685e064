import { fileReplies, RECEIPT_PATH } from '@soundid/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { attachmentDisposition } from '../../integrations/object-storage';
import { Fault } from '../../lib/fault';
import { navigationTokenOf, type SessionCookie } from '../accounts/session-cookie';
import type { SessionService } from '../accounts/sessions';
import { renderReceiptPdf } from './receipt-pdf';
import { receiptFileName, receiptOf, type Seller } from './receipts';

export interface ReceiptRoutesOptions {
  db: Database;
  seller: Seller;
  sessions: SessionService;
  sessionCookie: SessionCookie;
}

/**
 * GET /api/voiceai/receipts/<invoiceTag>.pdf (ADR 0058): a card purchase's receipt, made now from
 * what the payment records, as an attachment, to its buyer only. A link the browser follows
 * (the purchase history's Receipt link): the session cookie counts without the Software header,
 * as for the installers' download (navigationTokenOf); apps send AuthToken.
 */
export const receiptRoutes: FastifyPluginAsyncZod<ReceiptRoutesOptions> = async (
  app,
  { db, seller, sessions, sessionCookie },
) => {
  app.get(
    `${RECEIPT_PATH}:file`,
    {
      schema: {
        params: z.object({ file: z.string().max(120) }),
        response: fileReplies('application/pdf', 'The receipt, a PDF, as an attachment'),
      },
    },
    async (request, reply) => {
      const session = await sessions.authenticate(navigationTokenOf(request, sessionCookie));
      const invoiceTag = /^(inv_[\w-]{1,100})\.pdf$/.exec(request.params.file)?.[1];
      if (!invoiceTag) throw new Fault('PaymentNotFound');
      const pdf = await renderReceiptPdf(await receiptOf(db, seller, invoiceTag, session.userId));
      return (reply as FastifyReply)
        .header('Content-Type', 'application/pdf')
        .header('Content-Disposition', attachmentDisposition(receiptFileName(invoiceTag)))
        .header('Cache-Control', 'private, no-store')
        .send(pdf);
    },
  );
};
