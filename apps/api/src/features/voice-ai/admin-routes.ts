import { callSchemas, type PaymentMismatchSummary } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { paymentMismatches } from '../../db/payments-schema';
import { users } from '../../db/schema';
import type { Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { findUserByEmail, findUserById } from '../accounts/users-repo';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';
import type { TokenLedger } from '../tokens/ledger';
import type { CheckoutService } from './checkout';

/** The newest payment mismatches an operator sees at once. */
const MISMATCHES_SHOWN = 200;

/**
 * Finance's operator calls: grants and withdrawals of tokens (`npm run admin -- grant-tokens`,
 * `withdraw-tokens`), refunds of card payments (`refund-payment`) and the payments that did
 * not match their checkout (`payment-mismatches`, ADR 0032).
 */
export const voiceAiAdminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  random: Random;
  ledger: TokenLedger;
  checkout: CheckoutService;
  guard: OperatorGuard;
  audit: AuditTrail;
}> = async (app, { db, random, ledger, checkout, guard, audit }) => {
  app.post(
    '/api/admin/grant-tokens',
    { schema: callSchemas.AdminGrantTokens, onRequest: guard.for('AdminGrantTokens') },
    async (request) => {
      const { email, amount, reference, expiresInDays, reason } = request.body;
      const user = await findUserByEmail(db, email);
      if (!user) throw new Fault('UserNotFound');
      const sourceRef = `grant:${reference ?? random.bytes(16).toString('hex')}`;
      // The credit and its audit entry commit together (ADR 0045); a repeated reference credits once.
      const result = await db.transaction(async (tx) => {
        const before = await ledger.balance(user.id, tx);
        const credited = await ledger.credit(tx, {
          userId: user.id,
          amount,
          cause: 'grant',
          sourceRef,
          ...(expiresInDays === undefined ? {} : { validDays: expiresInDays }),
        });
        const after = await ledger.balance(user.id, tx);
        if (credited) {
          await audit.append(tx, {
            actor: operatorOf(request),
            action: 'AdminGrantTokens',
            outcome: 'done',
            target: { type: 'token-lot', id: sourceRef },
            customer: { id: user.id, email: user.email },
            before: { balance: before },
            after: { balance: after, granted: amount, ...(expiresInDays ? { expiresInDays } : {}) },
            reason,
            origin: originOf(request),
          });
        }
        return { Credited: credited, Amount: amount, TokenBalance: after };
      });
      return { Success: true as const, Result: result };
    },
  );

  app.post(
    '/api/admin/withdraw-tokens',
    { schema: callSchemas.AdminWithdrawTokens, onRequest: guard.for('AdminWithdrawTokens') },
    async (request) => {
      const { email, amount, reference, reason } = request.body;
      const user = await findUserByEmail(db, email);
      if (!user) throw new Fault('UserNotFound');
      // The withdrawal and its audit entry commit together (ADR 0045); a repeated reference withdraws once.
      const result = await db.transaction(async (tx) => {
        const done = await ledger.withdrawByFinance(tx, { userId: user.id, amount, reference });
        if (done.withdrawn) {
          await audit.append(tx, {
            actor: operatorOf(request),
            action: 'AdminWithdrawTokens',
            outcome: 'done',
            target: { type: 'token-withdrawal', id: reference },
            customer: { id: user.id, email: user.email },
            before: { balance: done.balanceBefore },
            after: { balance: done.balanceAfter, withdrawn: amount, lots: done.takenFrom },
            reason,
            origin: originOf(request),
          });
        }
        return { Withdrawn: done.withdrawn, Amount: amount, TokenBalance: done.balanceAfter };
      });
      return { Success: true as const, Result: result };
    },
  );

  app.post(
    '/api/admin/refund-payment',
    { schema: callSchemas.AdminRefundPayment, onRequest: guard.for('AdminRefundPayment') },
    async (request) => {
      const { invoiceTag, amountInCents, reference, reason } = request.body;
      const actor = operatorOf(request);
      // The provider refunds first (it cannot join our transaction); what it answered is kept,
      // and the tokens taken back, in the transaction of the audit entry (ADR 0032, 0045).
      const result = await checkout.refundPayment(
        { invoiceTag, amountInCents, reference },
        actor,
        async (tx, refund) => {
          const customer = await findUserById(tx, refund.userId);
          await audit.append(tx, {
            actor,
            action: 'AdminRefundPayment',
            outcome: 'done',
            target: { type: 'payment', id: invoiceTag },
            customer: { id: refund.userId, email: customer?.email ?? '(deleted)' },
            before: { refundedInCents: refund.refundedBeforeInCents },
            after: {
              refundId: refund.refundId,
              reference: refund.reference,
              refundedNowInCents: refund.amountInCents,
              refundedInCents: refund.refundedInCents,
              chargedInCents: refund.chargedInCents,
              currency: refund.currency,
              tokensWithdrawn: refund.tokensWithdrawn,
            },
            reason,
            origin: originOf(request),
          });
        },
      );
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
