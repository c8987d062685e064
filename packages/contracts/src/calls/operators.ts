import { z } from 'zod';
import { GRANT_MAX_VALID_DAYS, PASSWORD_MAX_LENGTH } from '../constants';
import { emailSchema, licenseKeySchema, serialSchema } from '../validators';
import { callBody, emptyBody } from './common';
import { signInChallengeSchema, totpCodeSchema } from './second-factor';

/**
 * The back office's operators (ADR 0044): accounts of the company's own staff, apart from the
 * customers, each with one or more roles. Every operator call names the roles it admits
 * (`operatorCallRoles`, below): a call not named there admits nobody.
 */
export const OPERATOR_ROLES = ['support', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** An operator's password: longer than a customer's, for an account that reaches every customer. */
export const OPERATOR_PASSWORD_MIN_LENGTH = 12;
/** A console session ends after this long without a call (ASVS 7.3.1) … */
export const OPERATOR_IDLE_MINUTES = 15;
/** … and this long after sign-in whatever happens (ASVS 7.3.2). */
export const OPERATOR_SESSION_HOURS = 12;
/** An invitation link works this long. */
export const OPERATOR_INVITATION_HOURS = 72;
/** A personal API token lives at most this long (the CLI asks for 30 days by default). */
export const OPERATOR_API_TOKEN_MAX_DAYS = 90;
export const OPERATOR_API_TOKEN_DEFAULT_DAYS = 30;
/**
 * The console's session cookie: scoped to the operator API (`Path=/api/admin`), so no customer
 * page or customer call ever carries it; `__Secure-` over https.
 */
export const CONSOLE_COOKIE_PLAIN = 'soundid_console';
export const CONSOLE_COOKIE_SECURE = '__Secure-soundid_console';
export const CONSOLE_COOKIE_PATH = '/api/admin';
/** A change's reason or ticket reference: required on every operator write (ADR 0045). */
export const AUDIT_REASON_MIN_LENGTH = 3;
export const AUDIT_REASON_MAX_LENGTH = 500;
/** An operator's reference (a ticket id, or the console's id of one form): at most this long. */
export const OPERATOR_REFERENCE_MAX_LENGTH = 100;
/** An operator's or an API token's name: at most this long. */
export const OPERATOR_NAME_MAX_LENGTH = 100;
/** Keys or upgrade codes issued at once. */
export const ISSUE_MAX_COUNT = 1000;
/** Audit entries a search answers at once. */
export const AUDIT_PAGE_SIZE = 100;

export const operatorRoleSchema = z.enum(OPERATOR_ROLES);
export const operatorRolesSchema = z
  .array(operatorRoleSchema)
  .min(1)
  .max(OPERATOR_ROLES.length)
  .transform((roles) => [...new Set(roles)].sort());
export const operatorPasswordSchema = z
  .string()
  .min(OPERATOR_PASSWORD_MIN_LENGTH, `Password is shorter than ${OPERATOR_PASSWORD_MIN_LENGTH} symbols.`)
  .max(PASSWORD_MAX_LENGTH);
/** Why a change is made: a sentence or a ticket reference, kept in the audit trail. */
export const auditReasonSchema = z.string().trim().min(AUDIT_REASON_MIN_LENGTH).max(AUDIT_REASON_MAX_LENGTH);
const operatorNameSchema = z.string().trim().min(1).max(OPERATOR_NAME_MAX_LENGTH);
/**
 * What makes a money or token change happen once: the same reference again changes nothing more
 * (a retry, a double click). The console makes one per open form; the CLI takes the ticket's.
 */
export const operatorReferenceSchema = z.string().trim().min(1).max(OPERATOR_REFERENCE_MAX_LENGTH);
const idSchema = z.string().uuid();
/** What an API token may do: read only (GET calls), or whatever its operator's roles allow. */
export const apiTokenScopeSchema = z.enum(['read', 'write']);
export type ApiTokenScope = z.infer<typeof apiTokenScopeSchema>;

/** A catalogue product code (`sid-reference`). */
const productCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/);
/** The shapes an upgrade code is issued in: UPG-…, 7 characters, or …GRACE. */
export const UPGRADE_CODE_SHAPES = ['upg', 'seven', 'grace'] as const;
export type UpgradeCodeShape = (typeof UPGRADE_CODE_SHAPES)[number];

/** The query strings of the operator calls that read (GET). */
export const operatorQueries = {
  AdminUser: z.object({ email: emailSchema }),
  AdminStorefrontOrders: z.object({ email: emailSchema }),
  /** `gc=1` collects garbage first when the process allows it (the load test). */
  AdminMetrics: z.object({ gc: z.enum(['0', '1']).optional() }),
} as const;

export const operatorCalls = {
  AdminGrantTokens: callBody({
    email: emailSchema,
    amount: z.number().int().positive().max(10_000_000),
    /** An operator's reference (ticket id) makes a repeated grant credit once. */
    reference: operatorReferenceSchema.optional(),
    /** Days the granted tokens stay valid, when sooner than a purchase's 12 months (GRANT_MAX_VALID_DAYS). */
    expiresInDays: z.number().int().min(1).max(GRANT_MAX_VALID_DAYS).optional(),
    reason: auditReasonSchema,
  }),
  AdminIssueKeys: callBody({
    product: productCodeSchema,
    count: z.number().int().min(1).max(ISSUE_MAX_COUNT),
    reason: auditReasonSchema,
  }),
  AdminIssueUpgradeCodes: callBody({
    product: productCodeSchema,
    from: z.array(productCodeSchema).min(1).max(20),
    count: z.number().int().min(1).max(ISSUE_MAX_COUNT),
    shape: z.enum(UPGRADE_CODE_SHAPES).default('upg'),
    reason: auditReasonSchema,
  }),
  AdminAddSerials: callBody({ serials: z.array(serialSchema).min(1).max(10_000), reason: auditReasonSchema }),
  // Support's everyday tickets (ADR 0044): each names the customer, each is audited.
  /** Clears the sign-in lockout of an address. */
  AdminUnlockSignIn: callBody({ email: emailSchema, reason: auditReasonSchema }),
  /** Ends every session of a customer (a stolen laptop, a shared password). */
  AdminEndCustomerSessions: callBody({ email: emailSchema, reason: auditReasonSchema }),
  /** Mails a new verification link to a customer who has not verified (a lost mail). */
  AdminResendVerification: callBody({ email: emailSchema, reason: auditReasonSchema }),
  /** Deactivates a device without spending the customer's allowance (past it: KeyRevokeOverLimit's "Learn more"). */
  AdminDeactivateDevice: callBody({ deviceId: z.string().uuid(), reason: auditReasonSchema }),
  /** Moves a licence key to another account (bought under another address); its seats go with it. */
  AdminMoveLicence: callBody({
    key: licenseKeySchema,
    toEmail: emailSchema,
    reason: auditReasonSchema,
  }),

  /** With the bootstrap token (ADMIN_TOKEN), once: the first admin's invitation. */
  OperatorBootstrap: callBody({ email: emailSchema, name: operatorNameSchema }),
  /** An admin invites an operator with their roles; the link goes by mail. */
  InviteOperator: callBody({
    email: emailSchema,
    name: operatorNameSchema,
    roles: operatorRolesSchema,
    reason: auditReasonSchema,
  }),
  /** The invited operator sets a password and receives an authenticator secret to confirm. */
  AcceptOperatorInvitation: callBody({ token: z.string().max(200), password: operatorPasswordSchema }),
  /** The first code from the authenticator app activates the operator. */
  ConfirmOperatorInvitation: callBody({ token: z.string().max(200), code: totpCodeSchema }),
  /** Password first: every operator has a second factor, so this always answers a challenge. */
  OperatorLogin: callBody({ email: emailSchema, password: z.string().max(PASSWORD_MAX_LENGTH) }),
  /**
   * The authenticator code completes the sign-in. `answer`: 'cookie' (the console) sets the
   * HttpOnly cookie and puts no token where the page's scripts can read it; 'token' (the CLI)
   * answers the session token in the body and sets no cookie (ADR 0047).
   */
  OperatorLoginSecondFactor: callBody({
    challenge: signInChallengeSchema,
    code: totpCodeSchema,
    answer: z.enum(['cookie', 'token']).default('cookie'),
  }),
  OperatorLogout: emptyBody,
  OperatorMe: emptyBody,
  ListOperatorSessions: emptyBody,
  EndOperatorSession: callBody({ id: idSchema }),
  CreateOperatorApiToken: callBody({
    name: operatorNameSchema,
    scope: apiTokenScopeSchema,
    days: z.number().int().min(1).max(OPERATOR_API_TOKEN_MAX_DAYS),
  }),
  ListOperatorApiTokens: emptyBody,
  RevokeOperatorApiToken: callBody({ id: idSchema }),
  ListOperators: emptyBody,
  SetOperatorRoles: callBody({ id: idSchema, roles: operatorRolesSchema, reason: auditReasonSchema }),
  DisableOperator: callBody({ id: idSchema, reason: auditReasonSchema }),
  SearchAudit: callBody({
    operator: z.string().trim().max(320).optional(),
    customer: z.string().trim().max(320).optional(),
    action: z.string().trim().max(100).optional(),
    from: z.iso.datetime().optional(),
    to: z.iso.datetime().optional(),
    /** The page after the entry with this sequence number (newest first). */
    before: z.number().int().positive().optional(),
  }),
  VerifyAudit: emptyBody,
} as const;

export const operatorSchema = z.object({
  Id: z.string(),
  Email: z.string(),
  Name: z.string(),
  Roles: z.array(operatorRoleSchema),
  Status: z.enum(['invited', 'active', 'disabled']),
  CreatedAt: z.string(),
  LastSignInAt: z.string().nullable(),
});
export type Operator = z.infer<typeof operatorSchema>;

const operatorSessionSchema = z.object({
  Id: z.string(),
  CreatedAt: z.string(),
  LastSeenAt: z.string(),
  ExpiresAt: z.string(),
  Address: z.string().nullable(),
  UserAgent: z.string().nullable(),
  Current: z.boolean(),
});
const operatorApiTokenSchema = z.object({
  Id: z.string(),
  Operator: z.string(),
  Name: z.string(),
  Scope: apiTokenScopeSchema,
  CreatedAt: z.string(),
  ExpiresAt: z.string(),
  LastUsedAt: z.string().nullable(),
  RevokedAt: z.string().nullable(),
});
export const auditEntrySchema = z.object({
  Seq: z.number(),
  At: z.string(),
  Operator: z.string().nullable(),
  Roles: z.array(z.string()),
  Action: z.string(),
  Outcome: z.enum(['done', 'denied']),
  TargetType: z.string().nullable(),
  TargetId: z.string().nullable(),
  Customer: z.string().nullable(),
  Before: z.unknown(),
  After: z.unknown(),
  Reason: z.string().nullable(),
  RequestId: z.string().nullable(),
  Address: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const operatorResults = {
  OperatorBootstrap: z.object({ Operator: operatorSchema, InvitationUrl: z.string() }),
  InviteOperator: z.object({ Operator: operatorSchema, InvitationUrl: z.string() }),
  AcceptOperatorInvitation: z.object({ Email: z.string(), TotpSecret: z.string(), OtpauthUrl: z.string() }),
  ConfirmOperatorInvitation: z.object({ Email: z.string() }),
  OperatorLogin: z.object({ Challenge: z.string() }),
  /** `Token` only for `answer: 'token'`. */
  OperatorLoginSecondFactor: z.object({
    Operator: operatorSchema,
    Token: z.string().optional(),
    ExpiresAt: z.string(),
  }),
  OperatorLogout: z.object({}),
  OperatorMe: z.object({
    Operator: operatorSchema,
    Via: z.enum(['console', 'token']),
    Scope: apiTokenScopeSchema,
    /** The session or API token in use (RevokeOperatorApiToken takes it). */
    CredentialId: z.string(),
  }),
  ListOperatorSessions: z.array(operatorSessionSchema),
  EndOperatorSession: z.object({}),
  CreateOperatorApiToken: z.object({ Token: z.string(), ApiToken: operatorApiTokenSchema }),
  ListOperatorApiTokens: z.array(operatorApiTokenSchema),
  RevokeOperatorApiToken: z.object({}),
  ListOperators: z.array(operatorSchema),
  SetOperatorRoles: z.object({ Operator: operatorSchema }),
  DisableOperator: z.object({ Operator: operatorSchema }),
  SearchAudit: z.object({ Entries: z.array(auditEntrySchema), More: z.boolean() }),
  VerifyAudit: z.object({
    Entries: z.number(),
    Intact: z.boolean(),
    /** The first entry that does not follow from the one before it, and why. */
    FirstBroken: z.object({ Seq: z.number(), Problem: z.string() }).nullable(),
  }),
} as const;

const ALL = OPERATOR_ROLES;
/**
 * Who may make each operator call (deny by default: ADR 0044). The service checks this for
 * every operator route before any work; a call absent from this map admits nobody.
 */
export const operatorCallRoles = {
  // Every operator: their own account, sessions and tokens, the catalogue, the audit trail.
  OperatorLogout: ALL,
  OperatorMe: ALL,
  ListOperatorSessions: ALL,
  EndOperatorSession: ALL,
  CreateOperatorApiToken: ALL,
  ListOperatorApiTokens: ALL,
  RevokeOperatorApiToken: ALL,
  SearchAudit: ALL,
  AdminProducts: ALL,
  // Support and finance read customers.
  AdminUser: ['support', 'finance'],
  AdminStorefrontOrders: ['support', 'finance'],
  AdminSearchCustomers: ['support', 'finance'],
  // Finance: tokens, payments and refunds.
  AdminGrantTokens: ['finance'],
  AdminPaymentMismatches: ['finance'],
  AdminWithdrawTokens: ['finance'],
  AdminRefundPayment: ['finance'],
  AdminRefundStorefrontOrder: ['finance'],
  SandboxCheckoutRefund: ['finance'],
  // Admin: operators and roles; keys, upgrade codes and serials; the service itself.
  InviteOperator: ['admin'],
  ListOperators: ['admin'],
  SetOperatorRoles: ['admin'],
  DisableOperator: ['admin'],
  VerifyAudit: ['admin'],
  AdminIssueKeys: ['admin'],
  AdminIssueUpgradeCodes: ['admin'],
  AdminAddSerials: ['admin'],
  AdminImportSerials: ['admin'],
  AdminMetrics: ['admin'],
  AdminJobs: ['admin'],
  AdminRunJob: ['admin'],
  // Support: the everyday tickets on a customer's account.
  AdminUnlockSignIn: ['support'],
  AdminEndCustomerSessions: ['support'],
  AdminResendVerification: ['support'],
  AdminDeactivateDevice: ['support'],
  AdminMoveLicence: ['support'],
  AdminResetDeactivations: ['support'],
  AdminUndoLostReport: ['support'],
  // Admin: releases of the download center (ADR 0046); every operator sees them.
  AdminUploadRelease: ['admin'],
  AdminRemoveRelease: ['admin'],
  AdminReleases: ALL,
} as const satisfies Record<string, readonly OperatorRole[]>;
export type OperatorCallName = keyof typeof operatorCallRoles;

/** The operator calls that change nothing: all a read-only API token may make. */
export const OPERATOR_READ_CALLS: readonly OperatorCallName[] = [
  'OperatorMe',
  'ListOperatorSessions',
  'ListOperatorApiTokens',
  'ListOperators',
  'SearchAudit',
  'VerifyAudit',
  'AdminProducts',
  'AdminUser',
  'AdminStorefrontOrders',
  'AdminSearchCustomers',
  'AdminPaymentMismatches',
  'AdminMetrics',
  'AdminReleases',
  'AdminJobs',
];
