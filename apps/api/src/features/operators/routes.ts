import { callRoutes, callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditTrail } from './audit-trail';
import type { OperatorAccounts } from './operator-accounts';
import { type ConsoleCookie, type OperatorGuard, operatorOf, originOf } from './operator-guard';

const ok = <T>(Result: T) => ({ Success: true as const, Result });
const metaOf = (request: { ip: string; headers: { 'user-agent'?: string | undefined } }) => ({
  ip: request.ip,
  userAgent: request.headers['user-agent']?.slice(0, 300),
});

/**
 * The operators' own calls (ADR 0044) at `POST /api/admin/<Name>`: the bootstrap, invitations,
 * sign-in with the mandatory second factor, sessions, API tokens, operators and roles, and the
 * audit trail (ADR 0045).
 */
export const operatorRoutes: FastifyPluginAsyncZod<{
  accounts: OperatorAccounts;
  audit: AuditTrail;
  guard: OperatorGuard;
  cookie: ConsoleCookie;
}> = async (app, { accounts, audit, guard, cookie }) => {
  const path = <N extends keyof typeof callRoutes>(name: N) => callRoutes[name].path;

  app.post(
    path('OperatorBootstrap'),
    { schema: callSchemas.OperatorBootstrap, onRequest: guard.bootstrap() },
    async (request) => ok(await accounts.bootstrap(request.body, originOf(request))),
  );
  app.post(
    path('InviteOperator'),
    { schema: callSchemas.InviteOperator, onRequest: guard.for('InviteOperator') },
    async (request) => ok(await accounts.invite(operatorOf(request), request.body, originOf(request))),
  );
  app.post(path('AcceptOperatorInvitation'), { schema: callSchemas.AcceptOperatorInvitation }, async (request) =>
    ok(await accounts.acceptInvitation(request.body.token, request.body.password)),
  );
  app.post(path('ConfirmOperatorInvitation'), { schema: callSchemas.ConfirmOperatorInvitation }, async (request) =>
    ok(await accounts.confirmInvitation(request.body.token, request.body.code, originOf(request))),
  );
  app.post(path('OperatorLogin'), { schema: callSchemas.OperatorLogin }, async (request) =>
    ok(await accounts.login(request.body.email, request.body.password, metaOf(request))),
  );
  app.post(
    path('OperatorLoginSecondFactor'),
    { schema: callSchemas.OperatorLoginSecondFactor },
    async (request, reply) => {
      const signedIn = await accounts.loginSecondFactor(
        request.body.challenge,
        request.body.code,
        metaOf(request),
        originOf(request),
      );
      const answered = { Operator: signedIn.Operator, ExpiresAt: signedIn.ExpiresAt.toISOString() };
      // The console's session lives in the HttpOnly cookie alone; the CLI asks for the token.
      if (request.body.answer === 'token') return ok({ ...answered, Token: signedIn.Token });
      cookie.set(reply, signedIn.Token);
      return ok(answered);
    },
  );
  app.post(
    path('OperatorLogout'),
    { schema: callSchemas.OperatorLogout, onRequest: guard.for('OperatorLogout') },
    async (request, reply) => {
      await accounts.logout(operatorOf(request));
      cookie.clear(reply);
      return ok({});
    },
  );
  app.post(
    path('OperatorMe'),
    { schema: callSchemas.OperatorMe, onRequest: guard.for('OperatorMe') },
    async (request) => {
      const operator = operatorOf(request);
      return ok({
        Operator: await accounts.get(operator.id),
        Via: operator.via,
        Scope: operator.scope,
        CredentialId: operator.credentialId,
      });
    },
  );
  app.post(
    path('ListOperatorSessions'),
    { schema: callSchemas.ListOperatorSessions, onRequest: guard.for('ListOperatorSessions') },
    async (request) => ok(await accounts.sessions(operatorOf(request))),
  );
  app.post(
    path('EndOperatorSession'),
    { schema: callSchemas.EndOperatorSession, onRequest: guard.for('EndOperatorSession') },
    async (request) => {
      await accounts.endSession(operatorOf(request), request.body.id);
      return ok({});
    },
  );
  app.post(
    path('CreateOperatorApiToken'),
    { schema: callSchemas.CreateOperatorApiToken, onRequest: guard.for('CreateOperatorApiToken') },
    async (request) => ok(await accounts.createApiToken(operatorOf(request), request.body, originOf(request))),
  );
  app.post(
    path('ListOperatorApiTokens'),
    { schema: callSchemas.ListOperatorApiTokens, onRequest: guard.for('ListOperatorApiTokens') },
    async (request) => ok(await accounts.apiTokens(operatorOf(request))),
  );
  app.post(
    path('RevokeOperatorApiToken'),
    { schema: callSchemas.RevokeOperatorApiToken, onRequest: guard.for('RevokeOperatorApiToken') },
    async (request) => {
      await accounts.revokeApiToken(operatorOf(request), request.body.id, originOf(request));
      return ok({});
    },
  );
  app.post(
    path('ListOperators'),
    { schema: callSchemas.ListOperators, onRequest: guard.for('ListOperators') },
    async () => ok(await accounts.list()),
  );
  app.post(
    path('SetOperatorRoles'),
    { schema: callSchemas.SetOperatorRoles, onRequest: guard.for('SetOperatorRoles') },
    async (request) => ok({ Operator: await accounts.setRoles(operatorOf(request), request.body, originOf(request)) }),
  );
  app.post(
    path('DisableOperator'),
    { schema: callSchemas.DisableOperator, onRequest: guard.for('DisableOperator') },
    async (request) => ok({ Operator: await accounts.disable(operatorOf(request), request.body, originOf(request)) }),
  );
  app.post(
    path('SearchAudit'),
    { schema: callSchemas.SearchAudit, onRequest: guard.for('SearchAudit') },
    async (request) => {
      const { from, to, ...rest } = request.body;
      return ok(
        await audit.search({ ...rest, from: from ? new Date(from) : undefined, to: to ? new Date(to) : undefined }),
      );
    },
  );
  app.post(path('VerifyAudit'), { schema: callSchemas.VerifyAudit, onRequest: guard.for('VerifyAudit') }, async () =>
    ok(await audit.verify()),
  );
};
