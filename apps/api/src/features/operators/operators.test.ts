import {
  type CallName,
  CONSOLE_COOKIE_PATH,
  callRoutes,
  OPERATOR_IDLE_MINUTES,
  OPERATOR_ROLES,
  OPERATOR_SESSION_HOURS,
  type OperatorRole,
  operatorCallRoles,
} from '@soundid/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { OPERATOR_TEST_PASSWORD } from '../../../test/kit/operators';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../../test/kit/test-app';
import { auditEntries, operatorCredentials, operators } from '../../db/operators-schema';

/**
 * The back office's operators and roles (ADR 0044) and the audit trail (ADR 0045). One app and
 * database for the file; every test makes the operators and customers it uses.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let made = 0;
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const post = (name: CallName, body: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: callRoutes[name].path,
    payload: body as object,
    headers: { 'content-type': 'application/json', ...headers },
  });

/** An operator invited by the first admin and activated: its email, TOTP secret and a console session. */
async function newOperator(roles: readonly OperatorRole[]) {
  const admin = await t.operatorToken(['admin']);
  const email = `op-${++made}@operators.example.com`;
  const invited = await post('InviteOperator', { email, name: `Op ${made}`, roles, reason: 'new hire' }, bearer(admin));
  expect(invited.statusCode).toBe(200);
  const token = (invited.json().Result.InvitationUrl as string).split('/').pop() as string;
  const accepted = await post('AcceptOperatorInvitation', { token, password: OPERATOR_TEST_PASSWORD });
  const secret = accepted.json().Result.TotpSecret as string;
  expect((await post('ConfirmOperatorInvitation', { token, code: t.operators.code(secret) })).statusCode).toBe(200);
  return { email, secret, id: invited.json().Result.Operator.Id as string, invitation: token };
}

/** An operator call on another app (a database of its own) with a Bearer token. */
const callOn = (app: TestApp) => (name: CallName, body: unknown, token: string) =>
  app.app.inject({
    method: 'POST',
    url: callRoutes[name].path,
    payload: body as object,
    headers: { 'content-type': 'application/json', ...bearer(token) },
  });

/** OperatorMe as the console calls it: the session cookie and the Software header. */
const meByCookie = (session: string) =>
  t.app.inject({
    method: 'POST',
    url: callRoutes.OperatorMe.path,
    payload: {},
    cookies: { soundid_console: session },
    headers: { 'content-type': 'application/json', software: 'console' },
  });

const lastAudit = async () =>
  (await t.database.db.select().from(auditEntries).orderBy(sql`${auditEntries.seq} desc`).limit(1))[0];

describe('the bootstrap token (ASVS 6.4.1, 8.2.1)', () => {
  it('only bootstraps, and stops working once an admin is active', async () => {
    // The kit's first admin exists once any operator token was made in this file.
    await t.operatorToken(['admin']);
    const again = await post(
      'OperatorBootstrap',
      { email: 'late@operators.example.com', name: 'Late' },
      bearer(ADMIN_TOKEN),
    );
    expect([again.statusCode, faultOf(again)]).toEqual([403, 'BootstrapClosed']);
    const other = await t.app.inject({ url: '/api/admin/products', headers: bearer(ADMIN_TOKEN) });
    expect([other.statusCode, faultOf(other)]).toEqual([403, 'BootstrapClosed']);
    const wrong = await post('OperatorBootstrap', { email: 'x@operators.example.com', name: 'X' }, bearer('nope'));
    expect([wrong.statusCode, faultOf(wrong)]).toEqual([401, 'AdminTokenInvalid']);
  });

  it('makes exactly one first admin of parallel bootstraps, and refuses other calls before that', async () => {
    const fresh = await createTestApp();
    try {
      const early = await fresh.app.inject({ url: '/api/admin/products', headers: bearer(ADMIN_TOKEN) });
      expect([early.statusCode, faultOf(early)]).toEqual([403, 'BootstrapTokenOnly']);
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          fresh.app.inject({
            method: 'POST',
            url: callRoutes.OperatorBootstrap.path,
            payload: { email: `first-${i}@operators.example.com`, name: `First ${i}` },
            headers: { 'content-type': 'application/json', ...bearer(ADMIN_TOKEN) },
          }),
        ),
      );
      expect(answers.every((a) => a.statusCode === 200)).toBe(true);
      // Each replaced the pending one before it: one admin invitation stays usable.
      const pending = await fresh.database.db.select().from(operators).where(sql`${operators.disabledAt} is null`);
      expect(pending).toHaveLength(1);
      expect(await fresh.services.audit.verify()).toMatchObject({ Intact: true, Entries: 6 });
    } finally {
      await fresh.close();
    }
  });
});

describe('operator sign-in (ASVS 6.3.3, 6.5.x, 7.3.x)', () => {
  it('always asks for the authenticator code, and a code works once', async () => {
    const { email, secret } = await newOperator(['support']);
    const wrongPassword = await post('OperatorLogin', { email, password: 'not the password at all' });
    expect([wrongPassword.statusCode, faultOf(wrongPassword)]).toEqual([401, 'OperatorSignInFailed']);
    const unknown = await post('OperatorLogin', {
      email: 'nobody@operators.example.com',
      password: OPERATOR_TEST_PASSWORD,
    });
    expect(faultOf(unknown)).toBe('OperatorSignInFailed');

    const first = (await post('OperatorLogin', { email, password: OPERATOR_TEST_PASSWORD })).json().Result.Challenge;
    const code = t.operators.code(secret, 1);
    const signedIn = await post('OperatorLoginSecondFactor', { challenge: first, code });
    expect(signedIn.statusCode).toBe(200);
    // The challenge is used up, and the same code does not open a second sign-in (replay).
    expect(faultOf(await post('OperatorLoginSecondFactor', { challenge: first, code }))).toBe(
      'OperatorChallengeInvalid',
    );
    const second = (await post('OperatorLogin', { email, password: OPERATOR_TEST_PASSWORD })).json().Result.Challenge;
    expect(faultOf(await post('OperatorLoginSecondFactor', { challenge: second, code }))).toBe('OperatorCodeInvalid');
    expect((await lastAudit())?.action).toBe('OperatorSignIn');
  });

  it('sets a console cookie scoped to the operator API, counted only with the Software header', async () => {
    const { email, secret } = await newOperator(['finance']);
    const session = await t.operators.signIn(email, secret);
    expect(session).toBeTruthy();
    const challenge = (await post('OperatorLogin', { email, password: OPERATOR_TEST_PASSWORD })).json().Result
      .Challenge;
    t.clock.advanceMinutes(1);
    const res = await post('OperatorLoginSecondFactor', { challenge, code: t.operators.code(secret, 1) });
    // The console's answer carries no token its scripts could read: the HttpOnly cookie alone.
    expect(res.json().Result.Token).toBeUndefined();
    expect(res.body).not.toContain(res.cookies[0]?.value);
    const cookie = res.cookies[0];
    expect(cookie).toMatchObject({
      name: 'soundid_console',
      httpOnly: true,
      sameSite: 'Strict',
      path: CONSOLE_COOKIE_PATH,
    });
    const withCookie = (headers: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: callRoutes.OperatorMe.path,
        payload: {},
        cookies: { soundid_console: cookie?.value as string },
        headers: { 'content-type': 'application/json', ...headers },
      });
    expect(faultOf(await withCookie())).toBe('SoftwareHeaderMissing');
    const me = await withCookie({ software: 'console' });
    expect(me.json().Result).toMatchObject({ Via: 'console', Operator: { Email: email, Roles: ['finance'] } });
  });

  it('ends a console session after the idle timeout and after the absolute limit', async () => {
    const { email, secret } = await newOperator(['support']);
    const session = await t.operators.signIn(email, secret);
    const me = () => post('OperatorMe', {}, bearer(session));
    // The session token works as Bearer too (the CLI's sign-in), under the same timeouts.
    expect((await me()).statusCode).toBe(200);
    const viaCookie = () => meByCookie(session);
    expect((await viaCookie()).statusCode).toBe(200);
    t.clock.advanceMinutes(OPERATOR_IDLE_MINUTES - 1);
    expect((await viaCookie()).statusCode).toBe(200);
    t.clock.advanceMinutes(OPERATOR_IDLE_MINUTES + 1);
    expect(faultOf(await viaCookie())).toBe('AdminTokenInvalid');

    const { email: other, secret: otherSecret } = await newOperator(['support']);
    const long = await t.operators.signIn(other, otherSecret);
    const keepAlive = () => meByCookie(long);
    for (let minutes = 0; minutes < OPERATOR_SESSION_HOURS * 60 - 10; minutes += 10) {
      t.clock.advanceMinutes(10);
      expect((await keepAlive()).statusCode).toBe(200);
    }
    t.clock.advanceMinutes(11);
    expect(faultOf(await keepAlive())).toBe('AdminTokenInvalid');
  });

  it('locks the operator after repeated wrong codes, counted in parallel (ASVS 6.3.1)', async () => {
    const { email, secret } = await newOperator(['support']);
    const challenges = await Promise.all(
      Array.from(
        { length: 8 },
        async () => (await post('OperatorLogin', { email, password: OPERATOR_TEST_PASSWORD })).json().Result?.Challenge,
      ),
    );
    const live = challenges.filter(Boolean) as string[];
    const answers = await Promise.all(
      live.map((challenge) => post('OperatorLoginSecondFactor', { challenge, code: '000000' })),
    );
    expect(answers.some((a) => faultOf(a) === 'AttemptOverLimitLogin')).toBe(true);
    // Locked: the right password and code are refused too.
    const locked = await post('OperatorLogin', { email, password: OPERATOR_TEST_PASSWORD });
    expect(faultOf(locked)).toBe('AttemptOverLimitLogin');
    t.clock.advanceMinutes(16);
    expect(await t.operators.signIn(email, secret)).toBeTruthy();
  });
});

describe('API tokens (ASVS 8.3.x, 7.4.x)', () => {
  it('are stored as hashes, scoped, expiring and revocable', async () => {
    const { email, secret } = await newOperator(['admin']);
    const session = await t.operators.signIn(email, secret);
    const viaCookie = (name: CallName, body: unknown) =>
      t.app.inject({
        method: 'POST',
        url: callRoutes[name].path,
        payload: body as object,
        cookies: { soundid_console: session },
        headers: { 'content-type': 'application/json', software: 'console' },
      });
    const created = (await viaCookie('CreateOperatorApiToken', { name: 'laptop', scope: 'read', days: 1 })).json()
      .Result;
    expect(created.Token).toMatch(/^msid_op_/);
    const stored = await t.database.db
      .select()
      .from(operatorCredentials)
      .where(eq(operatorCredentials.id, created.ApiToken.Id));
    expect(stored[0]?.secretHash).not.toContain(created.Token);
    expect(JSON.stringify(stored)).not.toContain(created.Token.slice(8));

    // Read-only: reads pass, a change is refused (and audited).
    expect((await post('ListOperators', {}, bearer(created.Token))).statusCode).toBe(200);
    const change = await post(
      'InviteOperator',
      { email: 'x@operators.example.com', name: 'X', roles: ['support'], reason: 'try' },
      bearer(created.Token),
    );
    expect([change.statusCode, faultOf(change)]).toEqual([403, 'OperatorTokenReadOnly']);
    expect(await lastAudit()).toMatchObject({ action: 'InviteOperator', outcome: 'denied', operatorEmail: email });

    // Listed with its last use, then revoked.
    const listed = (await viaCookie('ListOperatorApiTokens', {})).json().Result;
    expect(listed.find((x: { Id: string }) => x.Id === created.ApiToken.Id)).toMatchObject({
      Name: 'laptop',
      Scope: 'read',
    });
    expect((await viaCookie('RevokeOperatorApiToken', { id: created.ApiToken.Id })).statusCode).toBe(200);
    expect(faultOf(await post('ListOperators', {}, bearer(created.Token)))).toBe('AdminTokenInvalid');

    // Expiry.
    const short = (await viaCookie('CreateOperatorApiToken', { name: 'short', scope: 'write', days: 1 })).json().Result;
    expect((await post('OperatorMe', {}, bearer(short.Token))).statusCode).toBe(200);
    t.clock.advanceHours(25);
    expect(faultOf(await post('OperatorMe', {}, bearer(short.Token)))).toBe('AdminTokenInvalid');
  });
});

describe('roles, deny by default (ASVS 8.2.1, 8.3.1)', () => {
  const operatorCalls = (Object.keys(callRoutes) as CallName[]).filter((name) => callRoutes[name].auth === 'operator');

  it('guards every operator call, each with the roles the contract names', () => {
    expect([...t.services.operatorGuard.guarded].sort()).toEqual([...operatorCalls].sort());
    expect(Object.keys(operatorCallRoles).sort()).toEqual([...operatorCalls].sort());
  });

  it('admits each call for its roles only, and none without a sign-in or with the bootstrap token', async () => {
    const tokens = Object.fromEntries(
      // Tokens of its own: the matrix signs them out at the end (OperatorLogout revokes the token in use).
      await Promise.all(OPERATOR_ROLES.map(async (role) => [role, await t.operators.tokenFor([role])] as const)),
    ) as Record<OperatorRole, string>;
    const callAs = (name: CallName, headers: Record<string, string>) => {
      const { method, path } = callRoutes[name];
      return method === 'GET'
        ? t.app.inject({ method, url: path, headers })
        : t.app.inject({ method, url: path, payload: {}, headers: { 'content-type': 'application/json', ...headers } });
    };
    const table: string[] = [];
    const logoutLast = [...operatorCalls.filter((n) => n !== 'OperatorLogout'), 'OperatorLogout' as const];
    for (const name of logoutLast) {
      const anonymous = await callAs(name, {});
      expect(anonymous.statusCode, `${name} without sign-in`).toBe(401);
      expect((await callAs(name, bearer(ADMIN_TOKEN))).statusCode, `${name} with the bootstrap token`).toBe(403);
      for (const role of OPERATOR_ROLES) {
        const res = await callAs(name, bearer(tokens[role]));
        const admitted = (operatorCallRoles[name as keyof typeof operatorCallRoles] as readonly string[]).includes(
          role,
        );
        table.push(`${name} ${role} ${res.statusCode}`);
        if (admitted) expect([401, 403], `${name} as ${role}`).not.toContain(res.statusCode);
        else expect([res.statusCode, faultOf(res)], `${name} as ${role}`).toEqual([403, 'OperatorForbidden']);
      }
    }
    expect(table.length).toBe(operatorCalls.length * OPERATOR_ROLES.length);
  });

  it('audits a refusal for the role', async () => {
    const support = await t.operatorToken(['support']);
    const res = await post(
      'InviteOperator',
      { email: 'y@operators.example.com', name: 'Y', roles: ['admin'], reason: 'escalate' },
      bearer(support),
    );
    expect(faultOf(res)).toBe('OperatorForbidden');
    expect(await lastAudit()).toMatchObject({ action: 'InviteOperator', outcome: 'denied', roles: ['support'] });
  });

  it('two admins demoting each other at once: one stays admin, the other is refused for its role (ASVS 2.3.4)', async () => {
    const fresh = await createTestApp();
    try {
      const call = callOn(fresh);
      const first = await fresh.operators.adminToken();
      const second = await fresh.operators.tokenFor(['admin']);
      const idOf = async (token: string) => (await call('OperatorMe', {}, token)).json().Result.Operator.Id as string;
      const [firstId, secondId] = [await idOf(first), await idOf(second)];
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all([
          call('SetOperatorRoles', { id: secondId, roles: ['support'], reason: 'race' }, first),
          call('SetOperatorRoles', { id: firstId, roles: ['support'], reason: 'race' }, second),
        ]);
        // The first to hold the admins' lock wins; the other is no longer an admin when its
        // turn comes, whenever its guard read its roles: never a 500, never both.
        const outcomes = answers.map((a) => [a.statusCode, faultOf(a) ?? null]);
        expect(outcomes).toContainEqual([200, null]);
        expect(outcomes).toContainEqual([403, 'OperatorForbidden']);
        // Give the role back for the next round, from whoever kept admin.
        const winner = answers[0]?.statusCode === 200 ? first : second;
        const loser = winner === first ? secondId : firstId;
        expect(
          (await call('SetOperatorRoles', { id: loser, roles: ['admin'], reason: 'again' }, winner)).statusCode,
        ).toBe(200);
      }
    } finally {
      await fresh.close();
    }
  });

  it('an admin demoted while its own change waits does not make it (ASVS 8.2.1)', async () => {
    const fresh = await createTestApp();
    try {
      const call = callOn(fresh);
      const a = await fresh.operators.adminToken();
      const b = await fresh.operators.tokenFor(['admin']);
      const c = await fresh.operators.tokenFor(['admin']);
      const idOf = async (token: string) => (await call('OperatorMe', {}, token)).json().Result.Operator.Id as string;
      const [bId, cId] = [await idOf(b), await idOf(c)];
      for (let round = 0; round < 3; round++) {
        const [byA, byC] = await Promise.all([
          call('SetOperatorRoles', { id: cId, roles: ['support'], reason: `round ${round}: C leaves` }, a),
          call('SetOperatorRoles', { id: bId, roles: ['support'], reason: `round ${round}: B leaves` }, c),
        ]);
        expect(byA?.statusCode).toBe(200);
        const entries = await fresh.database.db
          .select()
          .from(auditEntries)
          .where(eq(auditEntries.action, 'SetOperatorRoles'))
          .orderBy(auditEntries.seq);
        const seqOf = (reason: string) => entries.find((e) => e.reason === reason && e.outcome === 'done')?.seq;
        if (byC?.statusCode === 200) {
          // C acted while still an admin: its change came first.
          expect(seqOf(`round ${round}: B leaves`)).toBeLessThan(seqOf(`round ${round}: C leaves`) ?? 0);
        } else {
          expect([byC?.statusCode, byC && faultOf(byC)]).toEqual([403, 'OperatorForbidden']);
        }
        for (const id of [bId, cId]) {
          expect((await call('SetOperatorRoles', { id, roles: ['admin'], reason: 'back' }, a)).statusCode).toBe(200);
        }
      }
    } finally {
      await fresh.close();
    }
  });

  it('keeps the last active admin, and a disabled operator loses every session and token', async () => {
    // A database of its own: this test changes who is admin.
    const fresh = await createTestApp();
    try {
      const call = callOn(fresh);
      // The first admin, alone.
      const admin = await fresh.operators.adminToken();
      const me = (await call('OperatorMe', {}, admin)).json().Result.Operator;
      const alone = await call('SetOperatorRoles', { id: me.Id, roles: ['support'], reason: 'oops' }, admin);
      expect([alone.statusCode, faultOf(alone)]).toEqual([409, 'OperatorLastAdmin']);
      expect(faultOf(await call('DisableOperator', { id: me.Id, reason: 'oops' }, admin))).toBe('OperatorLastAdmin');

      const second = await fresh.operators.tokenFor(['admin', 'support']);
      const financeToken = await fresh.operators.tokenFor(['finance']);
      const demoted = await call(
        'SetOperatorRoles',
        { id: me.Id, roles: ['support'], reason: 'moved to support' },
        second,
      );
      expect(demoted.json().Result.Operator.Roles).toEqual(['support']);

      const finance = (await call('OperatorMe', {}, financeToken)).json().Result.Operator;
      const disabled = await call('DisableOperator', { id: finance.Id, reason: 'left the company' }, second);
      expect(disabled.json().Result.Operator.Status).toBe('disabled');
      expect(faultOf(await call('OperatorMe', {}, financeToken))).toBe('AdminTokenInvalid');
      const live = await fresh.database.db
        .select()
        .from(operatorCredentials)
        .where(sql`${operatorCredentials.operatorId} = ${finance.Id} and ${operatorCredentials.revokedAt} is null`);
      expect(live).toHaveLength(0);
      const [entry] = await fresh.database.db
        .select()
        .from(auditEntries)
        .orderBy(sql`${auditEntries.seq} desc`)
        .limit(1);
      expect(entry).toMatchObject({
        action: 'DisableOperator',
        reason: 'left the company',
        before: { status: 'active' },
        after: { status: 'disabled' },
      });
    } finally {
      await fresh.close();
    }
  });
});

describe('changes carry a reason and an audit entry (ASVS 16.2.x)', () => {
  it('refuses a change without a reason and changes nothing', async () => {
    await signUpVerified(t, 'grant-me@example.com');
    const finance = await t.operatorToken(['finance']);
    const grant = (body: Record<string, unknown>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/admin/grant-tokens',
        payload: { email: 'grant-me@example.com', amount: 100, ...body },
        headers: { 'content-type': 'application/json', ...bearer(finance) },
      });
    const missing = await grant({});
    expect(missing.statusCode).toBe(400);
    const done = await grant({ reason: 'goodwill, ticket T-100', reference: 'T-100' });
    expect(done.json().Result).toMatchObject({ Credited: true, TokenBalance: 100 });
    expect(await lastAudit()).toMatchObject({
      action: 'AdminGrantTokens',
      outcome: 'done',
      customerEmail: 'grant-me@example.com',
      before: { balance: 0 },
      after: { balance: 100, granted: 100 },
      reason: 'goodwill, ticket T-100',
      roles: ['finance'],
    });
    const found = await post('SearchAudit', { customer: 'grant-me@' }, bearer(finance));
    expect(found.json().Result.Entries.map((e: { Action: string }) => e.Action)).toEqual(['AdminGrantTokens']);
  });
});

describe('the audit chain (ADR 0045)', () => {
  it('stays one chain under parallel changes', async () => {
    const admin = await t.operatorToken(['admin']);
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/admin/issue-keys',
          payload: { product: 'sid-reference', count: 1, reason: 'parallel test' },
          headers: { 'content-type': 'application/json', ...bearer(admin) },
        }),
      ),
    );
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(await t.services.audit.verify()).toMatchObject({ Intact: true, FirstBroken: null });
  });

  it('refuses updates and deletes in the database itself', async () => {
    await t.operatorToken(['admin']);
    await expect(t.database.db.execute(sql`update audit_entries set reason = 'changed'`)).rejects.toThrow();
    await expect(t.database.db.execute(sql`delete from audit_entries`)).rejects.toThrow();
  });

  it('names the first entry edited, deleted or moved by someone who bypasses the trigger', async () => {
    const fresh = await createTestApp();
    try {
      const admin = await fresh.operatorToken(['admin']);
      for (let i = 0; i < 4; i++) {
        await fresh.app.inject({
          method: 'POST',
          url: '/api/admin/issue-keys',
          payload: { product: 'sid-reference', count: 1, reason: `batch ${i}` },
          headers: { 'content-type': 'application/json', ...bearer(admin) },
        });
      }
      const verify = () => fresh.services.audit.verify();
      expect(await verify()).toMatchObject({ Intact: true });
      const rows = await fresh.database.db.select().from(auditEntries).orderBy(auditEntries.seq);
      const [a, b, c] = rows.slice(-3) as [(typeof rows)[number], (typeof rows)[number], (typeof rows)[number]];
      const tamper = (statement: ReturnType<typeof sql>) =>
        fresh.database.db.transaction(async (tx) => {
          await tx.execute(sql`alter table audit_entries disable trigger audit_entries_no_update_or_delete`);
          await tx.execute(statement);
          await tx.execute(sql`alter table audit_entries enable trigger audit_entries_no_update_or_delete`);
        });

      // Edited: the reason of an entry.
      await tamper(sql`update audit_entries set reason = 'nothing to see' where seq = ${b.seq}`);
      expect(await verify()).toMatchObject({ Intact: false, FirstBroken: { Seq: b.seq } });
      await tamper(sql`update audit_entries set reason = ${b.reason} where seq = ${b.seq}`);
      expect(await verify()).toMatchObject({ Intact: true });

      // Moved: two entries swap places.
      await tamper(sql`update audit_entries set seq = -1 where seq = ${a.seq}`);
      await tamper(sql`update audit_entries set seq = ${a.seq} where seq = ${b.seq}`);
      await tamper(sql`update audit_entries set seq = ${b.seq} where seq = -1`);
      expect(await verify()).toMatchObject({ Intact: false, FirstBroken: { Seq: a.seq } });
      await tamper(sql`update audit_entries set seq = -1 where seq = ${a.seq}`);
      await tamper(sql`update audit_entries set seq = ${a.seq} where seq = ${b.seq}`);
      await tamper(sql`update audit_entries set seq = ${b.seq} where seq = -1`);
      expect(await verify()).toMatchObject({ Intact: true });

      // Deleted: the entry after the gap no longer follows.
      await tamper(sql`delete from audit_entries where seq = ${b.seq}`);
      expect(await verify()).toMatchObject({ Intact: false, FirstBroken: { Seq: c.seq } });
    } finally {
      await fresh.close();
    }
  });
});
