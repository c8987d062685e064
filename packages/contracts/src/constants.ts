/** Timings and limits of the spec (docs/requirements.md §9). */
export const NOTIFICATION_AUTO_CLOSE_MS = 5000;
export const QUERY_NOTIFICATION_AUTO_CLOSE_MS = 30_000;
export const HOVER_MENU_CLOSE_DELAY_MS = 200;
export const SCROLL_TRACKING_DEBOUNCE_MS = 66;
export const ERROR_REPORT_SAMPLE_RATE = 0.4;
export const ERROR_TRACE_SAMPLE_RATE = 0.01;

export const PASSWORD_MIN_LENGTH = 8;
/** ASVS 5.0 6.2.9: at least 64 characters must be accepted. */
export const PASSWORD_MAX_LENGTH = 128;
export const EMAIL_MAX_LENGTH = 96;
/** RFC 5321's limit on the part before the @ (ADR 0031). */
export const EMAIL_LOCAL_PART_MAX_LENGTH = 64;

export const VERIFICATION_LINK_VALIDITY_HOURS = 24;
export const PASSWORD_RESET_LINK_VALIDITY_HOURS = 1;
export const EMAIL_CHANGE_LINK_VALIDITY_HOURS = 24;
export const ACCOUNT_DELETION_LINK_VALIDITY_HOURS = 24;
export const APP_LOGIN_TOKEN_VALIDITY_MINUTES = 5;
/** The one-time code of a portal link a desktop app opens signed in (ADR 0029). */
export const WEB_LOGIN_CODE_VALIDITY_MINUTES = 2;
/**
 * The ExceptionVariables of WebLoginSwitchUnconfirmed: who is signed in, and whom the link signs
 * in. Here, not beside the call's schema: the SPA's start-up reads it, and must not load zod (ADR 0020).
 */
export const WEB_LOGIN_SWITCH_VARIABLES = { current: 'CurrentEmail', link: 'LinkEmail' } as const;

export const SERIAL_MIN_LENGTH = 9;
export const SERIAL_MAX_LENGTH = 24;
export const CAMPAIGN_TRIAL_DAYS = 60;
export const REFERENCE_TRIAL_DAYS = 21;
export const VOICE_AI_TRIAL_DAYS = 7;

export const LICENSE_KEY_GROUPS = 4;
export const LICENSE_KEY_GROUP_LENGTH = 6;
export const LICENSE_KEY_LENGTH = LICENSE_KEY_GROUPS * LICENSE_KEY_GROUP_LENGTH;

export const ActivationType = { Normal: 0, Trial: 1 } as const;
export type ActivationType = (typeof ActivationType)[keyof typeof ActivationType];

/** Sign-in lockout: the spec's message says 5 minutes. */
export const LOGIN_LOCKOUT_MINUTES = 5;
export const LOGIN_MAX_FAILED_ATTEMPTS = 5;
/** When to try again after `ServiceBusy` (every password-hashing place taken, ADR 0028). */
export const SERVICE_BUSY_RETRY_AFTER_SECONDS = 1;
/** E-mail change requests allowed per window. */
export const EMAIL_CHANGE_MAX_ATTEMPTS = 5;
export const EMAIL_CHANGE_WINDOW_MINUTES = 60;
/**
 * Sign-ups and the mails customers can cause (docs/decisions/0031-sign-up-and-mail-limits.md),
 * counted per hour: the faults' messages say "an hour". Production defaults; the service's
 * SIGNUP_LIMIT_PER_CLIENT, SIGNUP_LIMIT_TOTAL and MAIL_LIMIT_PER_MAILBOX override them.
 */
export const ABUSE_LIMIT_WINDOW_MINUTES = 60;
/** New accounts per client address (an IPv6 client: its /64 network). */
export const SIGNUP_MAX_PER_CLIENT = 5;
/** New accounts from all clients together. */
export const SIGNUP_MAX_TOTAL = 100;
/** Mails to one mailbox (plus-addresses and Gmail's dots are one mailbox). */
export const MAILS_MAX_PER_MAILBOX = 5;

/** Session lifetimes: without keep-me-signed-in a session ends after idle time or a day at most. */
export const SESSION_SHORT_LIFETIME_HOURS = 24;
export const SESSION_LONG_LIFETIME_DAYS = 30;
/** Idle lifetimes: a session unused this long ends before its absolute lifetime. */
export const SESSION_SHORT_IDLE_HOURS = 2;
export const SESSION_LONG_IDLE_DAYS = 14;

export const TOKENS_PER_SECOND = 10;
export const MIN_BILLED_SECONDS = 7;
export const TOKEN_VALIDITY_MONTHS = 12;
/**
 * A grant may be made to expire sooner than a purchase (a promotion, a goodwill gesture that
 * should be used soon): 1 to this many days, never longer than TOKEN_VALIDITY_MONTHS.
 */
export const GRANT_MAX_VALID_DAYS = 365;
export const PAGINATION_WINDOW = 3;
export const PAYMENT_STATUS_MAX_RETRIES = 5;
export const PAYMENT_STATUS_FIRST_DELAY_MS = 3000;
export const PAYMENT_STATUS_DELAY_STEP_MS = 2000;
export const STOREFRONT_API_VERSION = '2025-01';
/**
 * Shopify's Admin GraphQL API version the service refunds storefront orders with (ADR 0059):
 * the first whose refundCreate takes an @idempotent key.
 */
export const SHOPIFY_ADMIN_API_VERSION = '2026-01';

export const NOTIFICATION_TYPES = ['success', 'danger', 'cookies'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

/** The routes whose query token is an action token, not a session token. */
export const TOKEN_ROUTES = [
  'reset-password',
  'delete-account',
  'verify-email',
  'verify-email-change',
  'report-sign-in',
] as const;

export const PAGE_TITLE_PREFIX = 'My SoundID';
export const PAGE_TITLE_SEPARATOR = ' | ';

/** Session cookie names (API contract, Session). */
export const SESSION_COOKIE_SECURE = '__Host-soundid_session';
export const SESSION_COOKIE_PLAIN = 'soundid_session';

// ── New-device alerts (ADR 0041) ─────────────────────────────────────────────
/**
 * The browser's device cookie: first-party, HttpOnly, a random id the service keeps only as a
 * hash per account; `__Host-` over https, as the session cookie.
 */
export const DEVICE_COOKIE_SECURE = '__Host-soundid_device';
export const DEVICE_COOKIE_PLAIN = 'soundid_device';
/** How long a browser keeps its device cookie (400 days: the longest Chromium allows). */
export const DEVICE_COOKIE_DAYS = 400;
/** How long the "This wasn't me" link of a new-device mail works. */
export const SIGN_IN_REPORT_LINK_VALIDITY_HOURS = 7 * 24;
/**
 * How long a "This wasn't me" (a new-device mail's link, or an entry of My activity) freezes the
 * account's e-mail changes and licence transfers (ADR 0041, docs/decisions/0055-my-activity.md).
 */
export const ACCOUNT_FREEZE_HOURS = 24;
/** How long ChangeEmail and VerifyEmailChange answer EmailChangeFrozen after a report. */
export const EMAIL_CHANGE_FREEZE_HOURS = ACCOUNT_FREEZE_HOURS;

// ── My activity (docs/decisions/0055-my-activity.md) ────────────────────────
/** Entries on a page of My activity (GetMyActivity). */
export const ACTIVITY_PAGE_SIZE = 20;
/** The last page GetMyActivity reads: offset paging stays bounded (20,000 entries back). */
export const ACTIVITY_MAX_PAGE = 1000;
/** "This wasn't me" reports (ReportNotMe) an account may make in an hour. */
export const NOT_ME_REPORTS_PER_HOUR = 5;

// ── Voice AI buy page and card checkout (voice-buy) ─────────────────────────
/** A token lot that expires within this many days is announced beside the token status. */
export const TOKEN_EXPIRY_WARNING_DAYS = 30;
/**
 * Script-readable analytics and affiliate cookies whose values travel with a token purchase
 * (PrepareTokenPurchaseCheckout metadata, then the payment's metadata): Google Analytics client
 * id, Google Ads click id, Meta browser id, and the affiliate id the marketing site sets.
 */
export const CHECKOUT_METADATA_COOKIES = ['_ga', '_gcl_aw', '_fbp', 'affiliate_id'] as const;
/** The analytics item category of a token bundle (docs/requirements.md §7). */
export const TOKEN_BUNDLE_ITEM_CATEGORY = 'One-off';
/** Where the card checkout ends (docs/requirements.md §2, post-checkout-message): the SPA route and the service's default return URL. */
export const POST_CHECKOUT_PATH = '/products/post-checkout';
