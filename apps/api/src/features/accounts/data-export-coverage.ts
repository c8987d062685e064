/**
 * Which tables the data export reads (ADR 0038), and why the others holding a customer's rows
 * are left out. test/data-export-coverage.test.ts reads the tables from the drizzle schemas and
 * fails for a table with a user column (or a customer's address) that is in neither list: a new
 * table is a decision to make here, so that the export stays complete.
 */
export const EXPORTED_TABLES = {
  users: 'Profile; SignInMethods.HasPassword (never the hash)',
  social_accounts: 'SignInMethods.LinkedIdentities',
  totp_factors: 'SignInMethods.TwoStepVerification (on or off, never the secret)',
  recovery_codes: 'SignInMethods.TwoStepVerification.RecoveryCodesLeft (a count, never a code or hash)',
  passkeys: 'SignInMethods.Passkeys (name and times, never the credential or its key)',
  sessions: 'Sessions (never the token)',
  seen_devices: 'SeenDevices (never the device cookie or its hash)',
  licences: 'Licences; DeletionSummary',
  license_keys: 'Keys; DeletionSummary',
  key_deactivations: 'Keys[].Deactivations',
  devices: 'Devices',
  lost_machines: 'Devices[].LostReport',
  upgrade_codes: 'Upgrades (never the code)',
  licence_transfers: 'LicenceTransfers, sent and accepted (keys masked, never the link token hash)',
  campaign_serials: 'CampaignClaims',
  token_lots: 'TokenLots; DeletionSummary.UnspentTokens',
  token_spends: 'TokenSpends',
  token_spend_allocations: 'TokenSpends[].PaidFrom',
  token_withdrawals: "TokenWithdrawals (never the reference: finance's own, the audit trail's)",
  notification_preferences: 'NotificationPreferences (the token mails chosen on the profile)',
  token_notices: 'TokenNotices (each token expiry or low-balance notice due, mailed or not)',
  checkout_sessions: 'Checkouts (never the client secret hash)',
  payment_refunds: 'Checkouts[].Refund',
  payment_mismatches: 'PaymentMismatches',
  storefront_orders: 'StorefrontOrders',
  storefront_order_keys: 'StorefrontOrders[].Keys',
  storefront_order_refunds: 'StorefrontOrders[].Refunds',
  account_events: 'Activity (My activity in words; never the user agent itself, its device name instead)',
  mail_log: 'Mails (subject and times only; the record of every mail, within MAIL_LOG_RETENTION_DAYS)',
} as const;

export const LEFT_OUT_TABLES = {
  audit_entries:
    "the back office's audit trail (ADR 0045): operators' accountability, not the customer's data; what an action changed (tokens, licences, devices) is in those sections",
  operators: "the company's own staff accounts (ADR 0044), no customer's: their e-mail column is an operator's address",
  mail_outbox:
    'the dev outbox (no SMTP_URL, never in production): the same mails in full for the dev mailbox, links and all; each is in Mails through its mail_log record',
  action_tokens: 'hashes of single-use mail links: secrets, and the mails they came in are in Mails',
  sign_in_challenges: 'hashes of five-minute sign-in challenges: secrets, gone within minutes',
  passkey_challenges: 'hashes of five-minute passkey challenges: secrets, gone within minutes',
  step_up_codes: 'hashes of ten-minute mailed confirmation codes: secrets, gone within minutes; the mails are in Mails',
  attempt_counters: 'rate-limit counters of the service, keyed by address or account, kept for an hour',
  payment_webhook_events: "the payment provider's event log; its outcome is each checkout's Status and Refund",
  shopify_webhook_events: "the store's event log; its outcome is each storefront order's Status and Keys",
  shopify_sandbox_carts: 'the sandbox storefront only (what Shopify itself keeps), never used in production',
  shopify_sandbox_orders: 'the sandbox storefront only (what Shopify itself keeps), never used in production',
} as const;
