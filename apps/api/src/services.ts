import { receiptPathOf } from '@soundid/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Database, DatabaseHandle } from './db/client';
import { createDevServices, type DevServices, devProvidersFor } from './dev';
import { AbuseLimits } from './features/accounts/abuse-limits';
import { ActionTokenService } from './features/accounts/action-tokens';
import { AttemptLimiter } from './features/accounts/attempt-limits';
import { sharedBreachedPasswords } from './features/accounts/breached-passwords';
import { DataExportService } from './features/accounts/data-export';
import { PasskeyService } from './features/accounts/passkeys';
import { type PasswordHashing, sharedHashing } from './features/accounts/passwords';
import { SecondFactorService, totpSecretBox } from './features/accounts/second-factor';
import { DeviceCookie } from './features/accounts/seen-devices';
import { AccountService, LOGIN_LIMIT } from './features/accounts/service';
import { SessionCookie } from './features/accounts/session-cookie';
import { SessionService } from './features/accounts/sessions';
import type { SocialVerifier } from './features/accounts/social-verifier';
import { StepUpService } from './features/accounts/step-up';
import { AccountActivity } from './features/activity/activity';
import { Deeplinks } from './features/licences/deeplinks';
import { IDLE_SEAT_MAIL_JOB, IdleSeats, idleSeatJobs } from './features/licences/idle-seats';
import { LicenceList } from './features/licences/licence-list';
import { LostMachines } from './features/licences/lost-machines';
import { loadOfflineSigner, type OfflineLicenseSigner } from './features/licences/offline';
import { chargeActivationsOfDeletedCustomer } from './features/licences/repo';
import { LicenceService } from './features/licences/service';
import { LicenceTransfers } from './features/licences/transfers';
import { MailLog, mailLogJobs } from './features/mail/mail-log';
import { createMailer, type Mailer } from './features/mail/mailer';
import { type PublicConfig, publicConfigOf } from './features/meta/public-config';
import { AuditTrail } from './features/operators/audit-trail';
import { OperatorAccounts } from './features/operators/operator-accounts';
import { ConsoleCookie, OperatorGuard } from './features/operators/operator-guard';
import { ReleaseService, stagingDirOf } from './features/releases/service';
import { StorefrontRefunds } from './features/storefront/operator-refunds';
import { StorefrontOrderService } from './features/storefront/order-fulfilment';
import { TokenLedger } from './features/tokens/ledger';
import { TOKEN_NOTICE_MAIL_JOB, TokenNotices, tokenNoticeJobs } from './features/tokens/notices';
import { type CardCheckout, createCardCheckout } from './features/voice-ai/bundles';
import { CheckoutService, invoiceTagOfLot } from './features/voice-ai/checkout';
import { PURCHASE_MAIL_JOB, purchaseMailJob } from './features/voice-ai/purchase-mail';
import { JobQueue } from './integrations/job-queue';
import { createSmtpTransport } from './integrations/mail/smtp-transport';
import type { MailTransport } from './integrations/mail/types';
import { createObjectStorage, DownloadTokens, type ObjectStorage } from './integrations/object-storage';
import { ShopifyAdminClient } from './integrations/shopify/admin-api';
import { createSocialVerifier } from './integrations/social';
import { StripeCheckoutProvider } from './integrations/stripe';
import type { Clock, Random } from './lib/clock';
import { noTurns, Turns } from './lib/turns';

export interface ServiceOptions {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  random: Random;
  /** The service log (Fastify's): failures after the answer, provider refusals, dev mail links. */
  log: FastifyBaseLogger;
  /** Overrides the transport chosen from SMTP_URL (tests). */
  mailTransport?: MailTransport | undefined;
  socialVerifier?: SocialVerifier | undefined;
  /** Overrides the shared hashing pool of `HASHING_THREADS` threads. */
  hashing?: PasswordHashing | undefined;
  /** The dev outbox does not print mail links to the console. */
  quiet?: boolean | undefined;
}

/** Every service of the app, each built once (ADR 0033). */
export interface Services {
  config: Config;
  database: DatabaseHandle;
  db: Database;
  clock: Clock;
  random: Random;
  /** What the SPA is told before it renders (GET /api/config and every served page). */
  publicConfig: PublicConfig;
  mailer: Mailer;
  /** The record of every mail sent, and its retention (ADR 0038). */
  mailLog: MailLog;
  social: SocialVerifier;
  sessions: SessionService;
  sessionCookie: SessionCookie;
  /** The browser's device cookie of the new-device alerts (ADR 0041). */
  deviceCookie: DeviceCookie;
  /** Attempt counters in the database (sign-in lockout, client reports). */
  limiter: AttemptLimiter;
  /** TOTP and recovery codes (ADR 0037). */
  secondFactor: SecondFactorService;
  /** Passkeys (ADR 0039). */
  passkeys: PasskeyService;
  /** Proofs of presence before what matters (ADR 0040). */
  stepUp: StepUpService;
  /** The customer's data export and deletion summary (ADR 0038). */
  dataExport: DataExportService;
  activity: AccountActivity;
  accounts: AccountService;
  ledger: TokenLedger;
  /** Token expiry and low-balance mails, and the customer's choice of them (ADR 0057). */
  tokenNotices: TokenNotices;
  deeplinks: Deeplinks;
  licences: LicenceService;
  /** Machines reported lost or stolen (ADR 0050). */
  lostMachines: LostMachines;
  /** Licences passed on by their owners (ADR 0054). */
  licenceTransfers: LicenceTransfers;
  /** Seats released after their product's idle days unseen (ADR 0052). */
  idleSeats: IdleSeats;
  /**
   * Scheduled and queued work (ADR 0051). The server starts it (server.ts); an app built for a
   * test does not, unless the test does.
   */
  jobs: JobQueue;
  licenceList: LicenceList;
  /** The offline licence signer, loaded on first use; undefined without a key. */
  offlineSigner(): OfflineLicenseSigner | undefined;
  /** Undefined in production without STRIPE_*: no bundles on sale. */
  cardCheckout: CardCheckout | undefined;
  checkout: CheckoutService;
  /** Undefined in production without SHOPIFY_*: no storefront. */
  storefrontOrders: StorefrontOrderService | undefined;
  /** Finance's refunds of storefront orders through the store (ADR 0059); undefined without a storefront. */
  storefrontRefunds: StorefrontRefunds | undefined;
  /** The back office's audit trail (ADR 0045). */
  audit: AuditTrail;
  /** The back office's operators (ADR 0044). */
  operators: OperatorAccounts;
  /** Every operator route's gate: signed in, and a role that admits the call (ADR 0044). */
  operatorGuard: OperatorGuard;
  consoleCookie: ConsoleCookie;
  /** Where installers are kept: S3 with S3_BUCKET, else DATA_DIR/objects (ADR 0046). */
  objectStorage: ObjectStorage;
  /** Releases and the download center (ADR 0046). */
  releases: ReleaseService;
  /** The development stand-ins in use; undefined in production. */
  dev: DevServices | undefined;
}

/**
 * The composition root: builds every service of the app once, from the configuration and the
 * open database. buildApp (app.ts) hands each route plugin the services it uses.
 */
export function createServices(options: ServiceOptions): Services {
  const { config, database, clock, random, log } = options;
  const db = database.db;
  const dev = devProvidersFor(config, random);

  const transport =
    options.mailTransport ?? (config.smtpUrl ? createSmtpTransport(config.smtpUrl, config.mailFrom) : undefined);
  const mailLog = new MailLog({ db, clock, retentionDays: config.mailLogRetentionDays });
  const mailer = createMailer({
    db,
    clock,
    log,
    transport,
    mailLog,
    ...(options.quiet ? { announce: () => {} } : {}),
  });
  const social =
    options.socialVerifier ??
    createSocialVerifier({
      ...config.social,
      now: () => clock.now(),
      // Tells a provider outage from a bad token in the log; the client sees the same fault.
      onFailure: (platform, error) => log.warn({ err: error, platform }, 'social sign-in token refused'),
    });
  const sessions = new SessionService(db, clock, config.sessionSecret);
  const limiter = new AttemptLimiter(db, clock);
  const secondFactor = new SecondFactorService({
    db,
    clock,
    random,
    box: totpSecretBox(config.sessionSecret, random),
    limiter,
    loginLimit: LOGIN_LIMIT,
    mailer,
  });
  const publicUrl = new URL(config.publicUrl);
  const passkeys = new PasskeyService({
    db,
    clock,
    random,
    rpId: publicUrl.hostname,
    origin: publicUrl.origin,
    rpName: 'My SoundID',
    log,
    mailer,
  });
  const abuse = new AbuseLimits(limiter, config.abuseLimits);
  // Read once per process, now rather than at the first sign-up (ADR 0042).
  const breachedPasswords = sharedBreachedPasswords();
  breachedPasswords.warm((error) => log.error({ err: error }, 'breached-password list not loaded'));
  const hashing =
    options.hashing ?? sharedHashing(config.hashingThreads, config.passwordHashCost, config.hashingPriority);
  const accounts = new AccountService({
    log,
    db,
    clock,
    sessions,
    tokens: new ActionTokenService(clock, random),
    limiter,
    abuse,
    hashing,
    breachedPasswords,
    mailer,
    social,
    publicUrl: config.publicUrl,
    appLoginScheme: config.appLoginScheme,
    beforeDelete: chargeActivationsOfDeletedCustomer,
    secondFactor,
    passkeys,
    signInTurns: database.kind === 'pglite' ? new Turns() : noTurns,
  });
  const stepUp = new StepUpService({ db, clock, random, mailer, abuse, secondFactor, passkeys, passwords: accounts });

  const jobs = new JobQueue({ connection: database.jobQueueConnection, log });
  const tokenNotices = new TokenNotices({
    db,
    clock,
    prepare: () => jobs.ready(),
    onNotice: async (tx, notice) => {
      await jobs.enqueueIn(tx, TOKEN_NOTICE_MAIL_JOB, { noticeIds: notice.noticeIds });
    },
  });
  jobs.define(...tokenNoticeJobs({ notices: tokenNotices, mailer, publicUrl: config.publicUrl }));
  const ledger = new TokenLedger(db, clock, {
    watcher: tokenNotices,
    // A card purchase's lot links its receipt (ADR 0058).
    receiptUrlOf: (sourceRef) => {
      const invoiceTag = invoiceTagOfLot(sourceRef);
      return invoiceTag && `${config.publicUrl}${receiptPathOf(invoiceTag)}`;
    },
  });
  const deeplinks = new Deeplinks(config.appLoginScheme);
  const licences = new LicenceService({ db, clock, random, deeplinks, ledger });
  const lostMachines = new LostMachines({ db, clock });
  const licenceTransfers = new LicenceTransfers({
    db,
    clock,
    random,
    mailer,
    abuse,
    publicUrl: config.publicUrl,
    licences,
  });
  const idleSeats = new IdleSeats({
    db,
    clock,
    prepare: () => jobs.ready(),
    onReleased: async (tx, seat) => {
      await jobs.enqueueIn(tx, IDLE_SEAT_MAIL_JOB, seat);
    },
  });
  jobs.define(...idleSeatJobs({ idleSeats, db, mailer, publicUrl: config.publicUrl }), ...mailLogJobs(mailLog));
  let signer: OfflineLicenseSigner | undefined;
  const offlineSigner = () => {
    signer ??= loadOfflineSigner({
      pem: config.offlineLicenseSigningKey,
      dataDir: config.dataDir,
      isProduction: config.isProduction,
    });
    return signer;
  };

  const cardCheckout = createCardCheckout(
    config.stripe ? new StripeCheckoutProvider(config.stripe) : dev?.checkoutProvider,
    clock,
  );
  const checkout = new CheckoutService({
    db,
    clock,
    random,
    config,
    ledger,
    checkout: cardCheckout,
    log,
    prepare: () => jobs.ready(),
    onPaid: async (tx, paid) => {
      await jobs.enqueueIn(tx, PURCHASE_MAIL_JOB, paid);
    },
  });
  jobs.define(purchaseMailJob({ db, seller: config.seller, mailer, publicUrl: config.publicUrl }));

  const store = config.shopify ? { source: 'shopify' as const, ...config.shopify } : dev?.storefront;
  const storefrontOrders =
    store &&
    new StorefrontOrderService({
      db,
      clock,
      licences,
      ledger,
      mailer,
      log,
      publicUrl: config.publicUrl,
      webhookSecret: store.webhookSecret,
      source: store.source,
      voiceAiProductIds: store.voiceAiProductIds,
    });

  const devServices = dev && createDevServices(dev, { config, db, clock, random, checkout, storefrontOrders });
  const shopifyAdmin = config.shopify
    ? config.shopify.adminToken
      ? new ShopifyAdminClient({
          storeDomain: config.shopify.storeDomain,
          accessToken: config.shopify.adminToken,
          voiceAiProductIds: config.shopify.voiceAiProductIds,
        })
      : undefined
    : devServices?.sandboxStoreAdmin;
  const storefrontRefunds =
    storefrontOrders && new StorefrontRefunds({ db, clock, orders: storefrontOrders, store: shopifyAdmin });

  const audit = new AuditTrail(db, clock, config.sessionSecret);
  const operators = new OperatorAccounts({
    db,
    clock,
    random,
    hashing,
    breached: breachedPasswords,
    limiter,
    box: totpSecretBox(config.sessionSecret, random),
    mailer,
    audit,
    publicUrl: config.publicUrl,
  });
  const consoleCookie = new ConsoleCookie(config.publicUrl);
  const operatorGuard = new OperatorGuard({
    accounts: operators,
    audit,
    cookie: consoleCookie,
    bootstrapToken: config.adminToken,
  });
  const licenceList = new LicenceList(db, clock, deeplinks);
  // The folder storage signs its links with these; the release service checks them.
  const downloadTokens = new DownloadTokens(config.sessionSecret);
  const objectStorage = createObjectStorage(config.objectStorage, {
    clock,
    tokens: downloadTokens,
    publicUrl: config.publicUrl,
  });
  const releases = new ReleaseService({
    db,
    clock,
    random,
    storage: objectStorage,
    tokens: downloadTokens,
    stagingDir: stagingDirOf(config.dataDir),
    maxBytes: config.releaseMaxBytes,
    entitledProducts: (userId) => licenceList.productsHeldOrOffered(userId),
    log,
  });

  return {
    config,
    database,
    db,
    clock,
    random,
    publicConfig: publicConfigOf(config, social),
    mailer,
    mailLog,
    social,
    sessions,
    sessionCookie: new SessionCookie(config.publicUrl),
    deviceCookie: new DeviceCookie(config.publicUrl, random),
    limiter,
    secondFactor,
    passkeys,
    stepUp,
    dataExport: new DataExportService({ db, clock, limiter, mailLog }),
    activity: new AccountActivity(db),
    accounts,
    ledger,
    tokenNotices,
    deeplinks,
    licences,
    lostMachines,
    licenceTransfers,
    idleSeats,
    jobs,
    licenceList,
    offlineSigner,
    cardCheckout,
    checkout,
    storefrontOrders,
    storefrontRefunds,
    audit,
    operators,
    operatorGuard,
    consoleCookie,
    objectStorage,
    releases,
    dev: devServices,
  };
}
