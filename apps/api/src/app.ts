import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import { redactUrl } from '@soundid/contracts';
import Fastify, { type FastifyInstance, type FastifyServerFactory } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { DatabaseHandle } from './db/client';
import { registerDevRoutes, SANDBOX_STORE_SETTINGS } from './dev';
import { dataExportRoutes } from './features/accounts/data-export-routes';
import { passkeyRoutes } from './features/accounts/passkey-routes';
import type { PasswordHashing } from './features/accounts/passwords';
import { accountRoutes } from './features/accounts/routes';
import { secondFactorRoutes } from './features/accounts/second-factor-routes';
import { registerSessionCheck } from './features/accounts/session-cookie';
import type { SocialVerifier } from './features/accounts/social-verifier';
import { stepUpRoutes } from './features/accounts/step-up-routes';
import { activityRoutes } from './features/activity/routes';
import { adminRoutes } from './features/admin/routes';
import { appRoutes } from './features/apps/routes';
import { licenceRoutes } from './features/licences/routes';
import { clientReportRoutes } from './features/meta/client-reports';
import { metaRoutes } from './features/meta/routes';
import { operatorRoutes } from './features/operators/routes';
import { releaseAdminRoutes } from './features/releases/admin-routes';
import { releaseRoutes } from './features/releases/routes';
import { storefrontRoutes } from './features/storefront/routes';
import { tokenNoticeRoutes } from './features/tokens/notice-routes';
import { voiceAiAdminRoutes } from './features/voice-ai/admin-routes';
import { checkoutRoutes } from './features/voice-ai/checkout-routes';
import { receiptRoutes } from './features/voice-ai/receipt-routes';
import { voiceAiRoutes } from './features/voice-ai/routes';
import type { MailTransport } from './integrations/mail/types';
import { type Clock, type Random, systemClock, systemRandom } from './lib/clock';
import { redactConsoleUrl } from './plugins/console-paths';
import { answerFrameworkError, registerErrorHandling } from './plugins/errors';
import { registerJsonBody } from './plugins/json-body';
import { registerOpenApi } from './plugins/openapi';
import { registerSecurityHeaders } from './plugins/security-headers';
import { registerSpa } from './plugins/spa';
import { createServices, type Services } from './services';

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

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const defaultConsoleDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../console/dist');

/** Largest accepted request body: every call's body is small. */
const BODY_LIMIT = 64 * 1024;

/** Builds the service (never listens): plugins, then the route areas. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  return (await composeApp(options)).app;
}

/**
 * buildApp, with the services it built (createServices, the composition root): for the server's
 * start-up (the demo customer) and for tests that reach a service directly. Each route plugin
 * receives exactly the services it uses as its options (ADR 0033).
 */
export async function composeApp(options: AppOptions): Promise<{ app: FastifyInstance; services: Services }> {
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
              req: (req) => ({ method: req.method, url: redactConsoleUrl(redactUrl(req.url)), remoteAddress: req.ip }),
            },
            ...(options.logStream ? { stream: options.logStream } : {}),
          },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const services = createServices({
    config,
    database,
    clock,
    random,
    log: app.log,
    mailTransport: options.mailTransport,
    socialVerifier: options.socialVerifier,
    hashing: options.hashing,
    quiet: options.logger === false,
  });
  const { db, sessions, sessionCookie, accounts, ledger, licences, licenceList, cardCheckout } = services;
  const { operatorGuard: guard, audit } = services;
  registerSessionCheck(app, { sessions, sessionCookie });

  await app.register(cookie);
  registerJsonBody(app);
  registerErrorHandling(app, (reply) => sessionCookie.clear(reply));
  registerSecurityHeaders(app, config);

  await registerOpenApi(app, { publicUrl: config.publicUrl });
  await app.register(metaRoutes, {
    config,
    database,
    publicConfig: services.publicConfig,
    sandboxStore: SANDBOX_STORE_SETTINGS,
  });
  await app.register(clientReportRoutes, { limiter: services.limiter });
  const { stepUp } = services;
  await app.register(accountRoutes, {
    accounts,
    sessions,
    sessionCookie,
    deviceCookie: services.deviceCookie,
    stepUp,
  });
  await app.register(secondFactorRoutes, { secondFactor: services.secondFactor, stepUp });
  await app.register(passkeyRoutes, { passkeys: services.passkeys, stepUp });
  await app.register(stepUpRoutes, { stepUp });
  await app.register(dataExportRoutes, { dataExport: services.dataExport });
  await app.register(activityRoutes, { activity: services.activity, accounts, sessionCookie });
  await app.register(tokenNoticeRoutes, { tokenNotices: services.tokenNotices });
  await app.register(appRoutes, { accounts });
  await app.register(operatorRoutes, {
    accounts: services.operators,
    audit,
    guard,
    cookie: services.consoleCookie,
  });
  await app.register(adminRoutes, {
    db,
    clock,
    database,
    guard,
    audit,
    accounts,
    sessions,
    ledger,
    jobs: services.jobs,
  });
  await app.register(voiceAiRoutes, { ledger, licenceList, cardCheckout });
  await app.register(voiceAiAdminRoutes, { db, random, ledger, checkout: services.checkout, guard, audit });
  await app.register(checkoutRoutes, { checkout: services.checkout, cardCheckout });
  await app.register(receiptRoutes, { db, seller: config.seller, sessions, sessionCookie });
  await app.register(licenceRoutes, {
    db,
    clock,
    random,
    licences,
    licenceList,
    offlineActivation: config.offlineActivation,
    offlineSigner: services.offlineSigner,
    guard,
    audit,
    lostMachines: services.lostMachines,
    transfers: services.licenceTransfers,
    stepUp,
  });
  // Releases: the download center, and the operator's uploads (ADR 0046)
  await app.register(releaseRoutes, { releases: services.releases, sessions, sessionCookie });
  await app.register(releaseAdminRoutes, {
    releases: services.releases,
    guard,
    audit,
    maxBytes: config.releaseMaxBytes,
  });
  // Storefront: order webhook and operator order view
  await app.register(storefrontRoutes, {
    db,
    orders: services.storefrontOrders,
    refunds: services.storefrontRefunds,
    guard,
    audit,
  });
  // Development stand-ins (dev/): none in production
  if (services.dev) await registerDevRoutes(app, services.dev, { db, guard, audit, publicUrl: config.publicUrl });
  await registerSpa(app, {
    distDir: config.webDistDir ?? defaultWebDist,
    consoleDistDir: config.consoleDistDir ?? defaultConsoleDist,
    publicConfig: services.publicConfig,
    hasSessionCookie: (request) => sessionCookie.read(request) !== undefined,
  });
  return { app, services };
}
