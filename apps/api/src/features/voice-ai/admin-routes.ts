import { callSchemas, type PaymentMismatchSummary } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { paymentMismatches } from '../../db/payments-schema';
import { users } from '../../db/schema';
import type { Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { findUserByEmail } from '../accounts/users-repo';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';
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
  guard: OperatorGuard;
  audit: AuditTrail;
}> = async (app, { db, random, ledger, guard, audit }) => {
  app.post(
    '/api/admin/grant-tokens',
    { schema: callSchemas.AdminGrantTokens, onRequest: guard.for('AdminGrantTokens') },
    async (request) => {
      const { email, amount, reference, reason } = request.body;
      const user = await findUserByEmail(db, email);
      if (!user) throw new Fault('UserNotFound');
      const sourceRef = `grant:${reference ?? random.bytes(16).toString('hex')}`;
      // The credit and its audit entry commit together (ADR 0045); a repeated reference credits once.
      const result = await db.transaction(async (tx) => {
        const before = await ledger.balance(user.id, tx);
        const credited = await ledger.credit(tx, { userId: user.id, amount, cause: 'grant', sourceRef });
        const after = await ledger.balance(user.id, tx);
        if (credited) {
          await audit.append(tx, {
            actor: operatorOf(request),
            action: 'AdminGrantTokens',
            outcome: 'done',
            target: { type: 'token-lot', id: sourceRef },
            customer: { id: user.id, email: user.email },
            before: { balance: before },
            after: { balance: after, granted: amount },
            reason,
            origin: originOf(request),
          });
        }
        return { Credited: credited, Amount: amount, TokenBalance: after };
      });
      return { Success: true as const, Result: result };
    },
  );

  app.get(
    '/api/admin/payment-mismatches',
    { schema: callSchemas.AdminPaymentMismatches, onRequest: guard.for('AdminPaymentMismatches') },
    async () => {
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
    },
  );
};
