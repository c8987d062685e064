import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import { redactUrl } from '@soundid/contracts';
import Fastify, { type FastifyInstance, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config, RedirectTarget } from './config';
import type { Database, DatabaseHandle } from './db/client';
import { AbuseLimits } from './features/accounts/abuse-limits';
import { ActionTokenService } from './features/accounts/action-tokens';
import { AttemptLimiter } from './features/accounts/attempt-limits';
import { DataExportService } from './features/accounts/data-export';
import { dataExportRoutes } from './features/accounts/data-export-routes';
import { type PasswordHashing, sharedHashing } from './features/accounts/passwords';
import { accountRoutes } from './features/accounts/routes';
import { SecondFactorService } from './features/accounts/second-factor';
import { secondFactorRoutes } from './features/accounts/second-factor-routes';
import { AccountService, LOGIN_LIMIT } from './features/accounts/service';
import {
  type AuthenticatedRead,
  type SessionRowState,
  type SessionScopedRead,
  SessionService,
} from './features/accounts/sessions';
import type { SocialVerifier } from './features/accounts/social-verifier';
import { adminRoutes } from './features/admin/routes';
import { appRoutes } from './features/apps/routes';
import { licenceRoutes } from './features/licences/routes';
import { devMailboxRoutes } from './features/mail/dev-mailbox-routes';
import { createMailer, type Mailer } from './features/mail/mailer';
import { clientReportRoutes } from './features/meta/client-reports';
import { metaRoutes } from './features/meta/routes';
// Storefront: perpetual licence purchase (Shopify or the sandbox storefront)
import { storefrontRoutes } from './features/storefront/routes';
import { voiceAiAdminRoutes } from './features/voice-ai/admin-routes';
import { checkoutRoutes } from './features/voice-ai/checkout-routes';
import { voiceAiRoutes } from './features/voice-ai/routes';
import { createSmtpTransport } from './integrations/mail/smtp-transport';
import type { MailTransport } from './integrations/mail/types';
import { createSocialVerifier } from './integrations/social';
import { type Clock, type Random, systemClock, systemRandom } from './lib/clock';
import { SecretBox } from './lib/secret-box';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors';
import { registerJsonBody } from './plugins/json-body';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security-headers';
import { type Authenticated, authenticateRequest, SessionCookie, sessionTokenOf } from './plugins/session-cookie';
import { registerSpa } from './plugins/spa';

export interface AppOptions {
  config: Config;
  database: DatabaseHandle;
  clock?: Clock;
  random?: Random;
  /** Overrides the transport chosen from SMTP_URL (tests). */
  mailTransport?: MailTransport;
  socialVerifier?: SocialVerifier;
  /** Overrides the shared hashing pool of `HASHING_THREADS` threads (tests observe the hashes). */
  hashing?: PasswordHashing;
  logger?: boolean;
  /** Where the log goes instead of stdout (tests read what was logged). */
  logStream?: { write(line: string): void };
  /** A server already listening (server.ts binds the port before migrating, ADR 0027). */
  serverFactory?: FastifyServerFactory;
}

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  clock: Clock;
  random: Random;
  mailer: Mailer;
  social: SocialVerifier;
  sessions: SessionService;
  sessionCookie: SessionCookie;
  accounts: AccountService;
  redirectTargets: RedirectTarget[];
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
    /** The signed-in session of the request, or a session Fault. */
    requireSession(request: FastifyRequest): Promise<Authenticated>;
    /** The same check, the session row read by the call's own statement with its data (one round trip). */
    requireSessionWith<TRow extends SessionRowState>(
      request: FastifyRequest,
      read: SessionScopedRead<TRow>,
    ): Promise<AuthenticatedRead<TRow>>;
    /** The session if the request carries a valid one. */
    optionalSession(request: FastifyRequest): Promise<Authenticated | undefined>;
  }
}

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** Largest accepted request body: every call's body is small. */
const BODY_LIMIT = 64 * 1024;

/** Builds the service (never listens): plugins, then the route areas. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? systemRandom;

  const app = Fastify({
    bodyLimit: BODY_LIMIT,
    frameworkErrors: answerFrameworkError,
    trustProxy: config.trustProxy,
    ...(options.serverFactory && { serverFactory: options.serverFactory }),
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.authtoken',
              'req.headers.cookie',
              'req.headers.authorization',
              'res.headers["set-cookie"]',
            ],
            serializers: {
              req: (req) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
            },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const db = database.db;
  const transport =
    options.mailTransport ?? (config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : undefined);
  const mailer = createMailer({
    db,
    clock,
    log: app.log,
    transport,
    ...(options.logger === false ? { announce: () => {} } : {}),
  });
  const social =
    options.socialVerifier ??
    createSocialVerifier({
      ...config.social,
      now: () => clock.now(),
      // Tells a provider outage from a bad token in the log; the client sees the same fault.
      onFailure: (platform, error) => app.log.warn({ err: error, platform }, 'social sign-in token refused'),
    });
  const sessions = new SessionService(db, clock, config.sessionSecret);
  const sessionCookie = new SessionCookie(config.publicUrl);
  const limiter = new AttemptLimiter(db, clock);
  const secondFactor = new SecondFactorService({
    db,
    clock,
    random,
    box: new SecretBox(config.sessionSecret, 'totp-secret', random),
    limiter,
    loginLimit: LOGIN_LIMIT,
    mailer,
  });
  const accounts = new AccountService({
    log: app.log,
    db,
    clock,
    sessions,
    tokens: new ActionTokenService(clock, random),
    limiter,
    abuse: new AbuseLimits(limiter, config.abuseLimits),
    hashing: options.hashing ?? sharedHashing(config.hashingThreads),
    mailer,
    social,
    publicUrl: config.publicUrl,
    appLoginScheme: config.appLoginScheme,
    secondFactor,
  });

  app.decorate('deps', {
    config,
    database,
    db,
    clock,
    random,
    mailer,
    social,
    sessions,
    sessionCookie,
    accounts,
    redirectTargets: config.redirectTargets,
  } satisfies AppDeps);
  app.decorate('requireSession', (request: FastifyRequest) => authenticateRequest(request, sessionCookie, sessions));
  app.decorate(
    'requireSessionWith',
    async <TRow extends SessionRowState>(request: FastifyRequest, read: SessionScopedRead<TRow>) =>
      sessions.authenticateWith(sessionTokenOf(request, sessionCookie).token, read),
  );
  app.decorate('optionalSession', async (request: FastifyRequest) => {
    try {
      return await authenticateRequest(request, sessionCookie, sessions);
    } catch {
      return undefined;
    }
  });

  await app.register(cookie);
  registerJsonBody(app);
  registerErrorHandling(app, (reply) => sessionCookie.clear(reply));
  registerSecurityHeaders(app, config);

  await registerOpenApi(app);
  await app.register(metaRoutes);
  await app.register(clientReportRoutes);
  await app.register(accountRoutes);
  await app.register(secondFactorRoutes, { secondFactor });
  await app.register(dataExportRoutes, { dataExport: new DataExportService({ db, clock, limiter }) });
  await app.register(appRoutes);
  await app.register(adminRoutes);
  await app.register(voiceAiRoutes);
  await app.register(voiceAiAdminRoutes);
  await app.register(checkoutRoutes);
  await app.register(licenceRoutes);
  // Storefront: order webhook, operator order view, sandbox storefront
  await app.register(storefrontRoutes);
  if (!config.isProduction && !config.smtpUrl) await app.register(devMailboxRoutes);
  await registerSpa(app, config.webDistDir ?? defaultWebDist);
  return app;
}
