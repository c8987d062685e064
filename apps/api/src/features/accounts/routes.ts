import { callSchemas, type User } from '@soundid/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json' with { type: 'json' };
import type { DeviceSighting } from './device-sighting';
import { appSighting, type DeviceCookie } from './seen-devices';
import type { AccountService, ClientMeta, SignedIn } from './service';
import { isBrowserRequest, type SessionCookie } from './session-cookie';
import type { SessionService } from './sessions';
import type { StepUpService } from './step-up';
import { toUser } from './users-repo';

countries.registerLocale(en);

/** The payment country list from the ISO 3166-1 data of i18n-iso-countries, sorted by name. */
const paymentCountries = Object.entries(countries.getNames('en', { select: 'official' }))
  .map(([Code, Name]) => ({ Code, Name }))
  .sort((a, b) => a.Name.localeCompare(b.Name, 'en'));

const path = (call: string) => `/api/accounts/${call}`;

/**
 * Who signs in from where. The device is a browser's device cookie or, for anything else, its
 * user-agent family on its network (ADR 0041).
 */
export function clientMeta(request: FastifyRequest, device: DeviceSighting = appSighting(request)): ClientMeta {
  return { userAgent: request.headers['user-agent'], ip: request.ip, device };
}

/** The account calls of docs/requirements.md §7, at the contract's paths. */
export const accountRoutes: FastifyPluginAsyncZod<{
  accounts: AccountService;
  sessions: SessionService;
  sessionCookie: SessionCookie;
  deviceCookie: DeviceCookie;
  /** What matters needs a recent proof of presence (ADR 0040). */
  stepUp: StepUpService;
}> = async (app, { accounts, sessions, sessionCookie, deviceCookie, stepUp }) => {
  const signInMeta = (request: FastifyRequest) => clientMeta(request, deviceCookie.sight(request));
  /**
   * A sign-in's answer. The session goes out in the HttpOnly cookie, and in the body (`Token`)
   * only to API clients: to a browser it travels in Set-Cookie alone (ASVS 3.3.4). The session
   * the browser's cookie held until now ends (ASVS 7.2.4). A browser keeps (or renews) its
   * device cookie, and a device new to the account is mailed about once the answer is out
   * (ADR 0041).
   */
  const signedIn = async (
    request: FastifyRequest,
    reply: FastifyReply,
    result: SignedIn,
    meta: ClientMeta,
    getProfile = true,
  ) => {
    await endReplacedSession(request);
    sessionCookie.set(reply, result.session.token, result.session.expiresAt, result.session.keepMeSignedIn);
    deviceCookie.set(reply, meta.device);
    reply.raw.once('close', () => accounts.announceNewDevice(result));
    const user: User = getProfile ? result.user : { ...result.user, Profile: null };
    if (isBrowserRequest(request)) return { Success: true as const, Result: { User: user } };
    return { Success: true as const, Token: result.session.token, Result: { User: user } };
  };
  const endReplacedSession = async (request: FastifyRequest) => {
    const previous = sessionCookie.read(request);
    if (!previous) return;
    try {
      await sessions.revoke((await sessions.authenticate(previous)).sessionId);
    } catch {
      // Already over (expired, revoked, not ours): nothing to end.
    }
  };
  const ok = <T = Record<string, never>>(Result: T = {} as T) => ({ Success: true as const, Result });
  // Work begun after an answer (reset mails) finishes before the service closes.
  app.addHook('onClose', () => accounts.settled());

  app.post(path('LoginByEmail'), { schema: callSchemas.LoginByEmail }, async (request, reply) => {
    const { email, password, keepMeSignedIn, getProfile } = request.body;
    const meta = signInMeta(request);
    const result = await accounts.loginByEmail(email, password, keepMeSignedIn ?? false, meta);
    return signedIn(request, reply, result, meta, getProfile);
  });

  /** The second step of a sign-in that answered SecondFactorRequired (ADR 0037). */
  app.post(path('LoginSecondFactor'), { schema: callSchemas.LoginSecondFactor }, async (request, reply) => {
    const { challenge, code, getProfile } = request.body;
    const meta = signInMeta(request);
    const result = await accounts.loginSecondFactor(challenge, code, meta);
    return signedIn(request, reply, result, meta, getProfile);
  });

  /**
   * A passkey sign-in (ADR 0039): one passkey verified by its device is both factors, so an
   * account with TOTP needs no code, and a sign-in waiting for its second factor may end here.
   */
  app.post(path('FinishPasskeyLogin'), { schema: callSchemas.FinishPasskeyLogin }, async (request, reply) => {
    const { challengeId, response, keepMeSignedIn, getProfile } = request.body;
    const meta = signInMeta(request);
    const result = await accounts.loginByPasskey(challengeId, response, keepMeSignedIn ?? false, meta);
    return signedIn(request, reply, result, meta, getProfile);
  });

  /**
   * Who is signed in. Signed in by the cookie, the answer carries no Token: script must never
   * read the session (ASVS 3.3.4). A token sent as AuthToken never becomes the browser's cookie:
   * a session a link or a third party chose is not planted (ASVS 7.2.4; portal links of the
   * apps are exchanged by ExchangeWebLoginCode, ADR 0029).
   */
  app.post(path('LoginByToken'), { schema: callSchemas.LoginByToken }, async (request) => {
    const auth = await app.requireSession(request);
    const user = toUser(auth.user);
    const Result = { User: request.body.getProfile === false ? { ...user, Profile: null } : user };
    if (auth.via === 'cookie' || isBrowserRequest(request)) return { Success: true as const, Result };
    return { Success: true as const, Token: String(request.headers.authtoken), Result };
  });

  /**
   * The query token of a desktop app's portal link (ADR 0029): a one-time code, answered like
   * a sign-in. A session live here is replaced only once the customer confirms, and then ended.
   */
  app.post(path('ExchangeWebLoginCode'), { schema: callSchemas.ExchangeWebLoginCode }, async (request, reply) => {
    const current = await app.optionalSession(request);
    const meta = signInMeta(request);
    const result = await accounts.exchangeWebLoginCode(
      request.body.code,
      current && { userId: current.userId, email: current.user.email },
      request.body.confirmSwitch ?? false,
      meta,
    );
    if (!result.session) return ok({ User: result.user });
    // The session it replaces ends, whether it came as the cookie or as AuthToken (ASVS 7.2.4).
    if (current) await sessions.revoke(current.sessionId);
    return signedIn(request, reply, { session: result.session, user: result.user }, meta);
  });

  app.post(path('LoginBySocial'), { schema: callSchemas.LoginBySocial }, async (request, reply) => {
    const { socialPlatform, token, tokenType, getProfile, keepMeSignedIn } = request.body;
    const meta = signInMeta(request);
    const result = await accounts.loginBySocial(socialPlatform, token, tokenType, keepMeSignedIn ?? true, meta);
    return signedIn(request, reply, result, meta, getProfile);
  });

  /** Ends the session if there is one; always clears the cookie. */
  app.post(path('Logout'), { schema: callSchemas.Logout }, async (request, reply) => {
    const auth = await app.optionalSession(request);
    if (auth) await sessions.revoke(auth.sessionId);
    sessionCookie.clear(reply);
    return ok();
  });

  app.post(path('GetAppLoginDeeplink'), { schema: callSchemas.GetAppLoginDeeplink }, async (request) => {
    const auth = await app.requireSession(request);
    return ok({ AppLoginDeeplink: await accounts.createAppLoginDeeplink(auth.userId) });
  });

  app.post(path('UpdateUserDetails'), { schema: callSchemas.UpdateUserDetails }, async (request) => {
    const auth = await app.requireSession(request);
    const { silent: _silent, ...address } = request.body;
    return ok({ User: await accounts.updateAddress(auth.userId, address) });
  });

  app.post(path('register'), { schema: callSchemas.register }, async (request, reply) => {
    await accounts.register(request.body.email, request.body.password, request.ip);
    reply.code(201);
    return ok();
  });

  app.post(path('InitiatePasswordReset'), { schema: callSchemas.InitiatePasswordReset }, async (request, reply) => {
    // Over the mailbox's allowance: 429 for every address, known or not (ADR 0031).
    await accounts.countPasswordResetMail(request.body.email);
    // The work begins once the answer is out: nothing a known address costs (lookup, link,
    // mail) can show in the answer's timing (ASVS 6.3.8).
    reply.raw.once('close', () => accounts.initiatePasswordReset(request.body.email));
    return ok();
  });

  app.post(path('PasswordReset'), { schema: callSchemas.PasswordReset }, async (request) => {
    await accounts.resetPassword(request.body.token, request.body.password);
    return ok();
  });

  /**
   * "This wasn't me" from a new-device mail (ADR 0041): every session ends, this browser's too,
   * and the answer says until when e-mail changes are frozen.
   */
  app.post(path('ReportSignIn'), { schema: callSchemas.ReportSignIn }, async (request, reply) => {
    const { frozenUntil } = await accounts.reportSignIn(request.body.token);
    sessionCookie.clear(reply);
    return ok({ EmailChangesFrozenUntil: frozenUntil.getTime() });
  });

  app.post(path('DeleteAccountConfirm'), { schema: callSchemas.DeleteAccountConfirm }, async (request, reply) => {
    await accounts.confirmDeletion(request.body.token);
    sessionCookie.clear(reply);
    return ok();
  });

  app.post(path('VerifyEmail'), { schema: callSchemas.VerifyEmail }, async (request, reply) => {
    const meta = signInMeta(request);
    return signedIn(request, reply, await accounts.verifyEmail(request.body.token, meta), meta);
  });

  app.post(path('VerifyEmailChange'), { schema: callSchemas.VerifyEmailChange }, async (request) => {
    return ok({ User: await accounts.confirmEmailChange(request.body.token) });
  });

  app.post(
    path('ResendVerificationEmailForToken'),
    { schema: callSchemas.ResendVerificationEmailForToken },
    async (request) => {
      await accounts.resendVerificationForToken(request.body.token);
      return ok();
    },
  );

  app.post(path('ResendVerificationEmail'), { schema: callSchemas.ResendVerificationEmail }, async (request) => {
    await accounts.resendVerification(request.body.email, request.body.password);
    return ok();
  });

  app.post(path('GetPaymentCountries'), { schema: callSchemas.GetPaymentCountries }, async () => ok(paymentCountries));

  app.post(path('GetOrUpdateProfile'), { schema: callSchemas.GetOrUpdateProfile }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(toUser(auth.user));
  });

  app.post(path('ChangePassword'), { schema: callSchemas.ChangePassword }, async (request) => {
    const auth = await app.requireSession(request);
    // With a password the old one is the proof; setting a first one needs a step-up.
    if (!auth.user.passwordHash) await stepUp.require(auth);
    await accounts.changePassword(auth.userId, auth.sessionId, request.body.oldPassword, request.body.newPassword);
    return ok();
  });

  app.post(path('ChangeEmail'), { schema: callSchemas.ChangeEmail }, async (request) => {
    const auth = await app.requireSession(request);
    // Frozen after a sign-in report (ADR 0041): said before a proof of presence is asked for.
    accounts.assertEmailChangeOpen(auth.user);
    await stepUp.require(auth);
    await accounts.requestEmailChange(auth.userId, request.body.newEmail);
    return ok();
  });

  app.post(path('GetSessions'), { schema: callSchemas.GetSessions }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await sessions.listActive(auth.userId, auth.sessionId));
  });

  /**
   * Signs out every other browser and app once the customer proves presence: the password given
   * with the call, or a step-up (ADR 0040); this session stays.
   */
  app.post(path('EndOtherSessions'), { schema: callSchemas.EndOtherSessions }, async (request) => {
    const auth = await app.requireSession(request);
    if (request.body.password === undefined) await stepUp.require(auth);
    await accounts.endOtherSessions(auth.userId, auth.sessionId, request.body.password);
    return ok();
  });

  app.post(path('DeleteAccount'), { schema: callSchemas.DeleteAccount }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    await accounts.requestDeletion(auth.userId);
    return ok();
  });
};
