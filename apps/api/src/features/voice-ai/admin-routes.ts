import { emailSchema } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { Fault } from '../../lib/fault';
import { findUserByEmail } from '../accounts/users-repo';
import { requireOperator } from '../admin/operator-auth';
import { TokenLedger } from './ledger';

/** Operator grants of tokens (`npm run admin -- grant-tokens`). */
export const voiceAiAdminRoutes: FastifyPluginAsyncZod = async (app) => {
  const ledger = new TokenLedger(app.deps.db, app.deps.clock);
  app.addHook('onRequest', requireOperator(app));

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
      },
    },
    async (request) => {
      const { email, amount, reference } = request.body;
      const user = await findUserByEmail(app.deps.db, email);
      if (!user) throw new Fault('UserNotFound');
      const sourceRef = `grant:${reference ?? app.deps.random.bytes(16).toString('hex')}`;
      const credited = await ledger.credit(app.deps.db, { userId: user.id, amount, cause: 'grant', sourceRef });
      return {
        Success: true,
        Result: { Credited: credited, Amount: amount, TokenBalance: await ledger.balance(user.id) },
      };
    },
  );
};
