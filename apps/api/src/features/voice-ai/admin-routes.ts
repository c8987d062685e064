import { callSchemas, emailSchema, type PaymentMismatchSummary } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { paymentMismatches } from '../../db/payments-schema';
import { users } from '../../db/schema';
import type { Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { findUserByEmail } from '../accounts/users-repo';
import { requireOperator } from '../admin/operator-auth';
import type { TokenLedger } from '../tokens/ledger';

/** The newest payment mismatches an operator sees at once. */
const MISMATCHES_SHOWN = 200;

/**
 * Operator grants of tokens (`npm run admin -- grant-tokens`) and the payments that did not
 * match their checkout (`npm run admin -- payment-mismatches`, ADR 0032).
 */
export const voiceAiAdminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  random: Random;
  ledger: TokenLedger;
  adminToken: string;
}> = async (app, { db, random, ledger, adminToken }) => {
  app.addHook('onRequest', requireOperator(adminToken));

  app.post(
    '/api/admin/grant-tokens',
    {
      schema: {
        body: z.strictObject({
          email: emailSchema,
          amount: z.number().int().positive().max(10_000_000),
          /** An operator's reference (ticket id) makes a repeated grant credit once. */
          reference: z.string().trim().min(1).max(100).optional(),
        }),
        ...callSchemas.AdminGrantTokens,
      },
    },
    async (request) => {
      const { email, amount, reference } = request.body;
      const user = await findUserByEmail(db, email);
      if (!user) throw new Fault('UserNotFound');
      const sourceRef = `grant:${reference ?? random.bytes(16).toString('hex')}`;
      const credited = await ledger.credit(db, { userId: user.id, amount, cause: 'grant', sourceRef });
      return {
        Success: true as const,
        Result: { Credited: credited, Amount: amount, TokenBalance: await ledger.balance(user.id) },
      };
    },
  );

  app.get('/api/admin/payment-mismatches', { schema: callSchemas.AdminPaymentMismatches }, async () => {
    const rows = await db
      .select({ mismatch: paymentMismatches, customer: users.email })
      .from(paymentMismatches)
      .leftJoin(users, eq(users.id, paymentMismatches.userId))
      .orderBy(desc(paymentMismatches.recordedAt), desc(paymentMismatches.eventId))
      .limit(MISMATCHES_SHOWN);
    const result: PaymentMismatchSummary[] = rows.map(({ mismatch, customer }) => ({
      EventId: mismatch.eventId,
      Provider: mismatch.provider,
      InvoiceTag: mismatch.invoiceTag,
      Customer: customer,
      ExpectedAmountInCents: mismatch.expectedAmountInCents,
      ExpectedCurrency: mismatch.expectedCurrency,
      ReceivedAmountInCents: mismatch.receivedAmountInCents,
      ReceivedCurrency: mismatch.receivedCurrency,
      RecordedAt: mismatch.recordedAt.toISOString(),
    }));
    return { Success: true as const, Result: result };
  });
};
