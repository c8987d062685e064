import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, TOKEN_ROUTES } from '../constants';
import { addressSchema, emailSchema, passwordSchema } from '../validators';
import { actionTokenSchema, callBody, emptyBody } from './common';

/** A password being checked (not chosen): any length up to the maximum, so old accounts still sign in. */
const presentedPassword = z.string().min(1).max(PASSWORD_MAX_LENGTH);

export const SOCIAL_PLATFORMS = ['Google', 'Apple', 'Facebook'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];

/**
 * The one-time code of a portal link that a desktop app opened (ADR 0029), bounded but not
 * shaped: anything else (a session token, a cut link) is looked up and answers
 * WebLoginCodeInvalid. Only hashes are looked up.
 */
export const webLoginCodeSchema = z.string().min(1).max(1000);

/**
 * A page of the portal to open a desktop app's link at: a path on this site (never `//host`),
 * and not one of the routes whose `?token=` is a mail's action token.
 */
export const portalPathSchema = z
  .string()
  .max(200)
  .regex(/^\/([A-Za-z0-9\-._~][A-Za-z0-9\-._~/]*)?$/)
  .refine((path) => !(TOKEN_ROUTES as readonly string[]).includes(path.split('/')[1] ?? ''));
export const SOCIAL_TOKEN_TYPES = ['access_token', 'id_token'] as const;

export const accountCalls = {
  LoginByEmail: callBody({
    email: emailSchema,
    password: presentedPassword,
    keepMeSignedIn: z.boolean().optional(),
    getProfile: z.boolean().optional(),
  }),
  LoginByToken: callBody({ getProfile: z.boolean().optional() }),
  LoginBySocial: callBody({
    socialPlatform: z.enum(SOCIAL_PLATFORMS),
    token: z.string().min(1).max(8192),
    tokenType: z.enum(SOCIAL_TOKEN_TYPES),
    getProfile: z.boolean().optional(),
    keepMeSignedIn: z.boolean().optional(),
  }),
  Logout: emptyBody,
  GetAppLoginDeeplink: emptyBody,
  /**
   * Signs the browser in with the one-time code of a desktop app's portal link (`?token=`).
   * With a different customer signed in here it changes nothing and answers
   * WebLoginSwitchUnconfirmed until the customer confirms (`confirmSwitch`), ADR 0029.
   */
  ExchangeWebLoginCode: callBody({ code: webLoginCodeSchema, confirmSwitch: z.boolean().optional() }),
  UpdateUserDetails: callBody(addressSchema.shape),
  register: callBody({ email: emailSchema, password: passwordSchema }),
  InitiatePasswordReset: callBody({ email: emailSchema }),
  PasswordReset: callBody({ password: passwordSchema, token: actionTokenSchema }),
  DeleteAccountConfirm: callBody({ token: actionTokenSchema }),
  VerifyEmail: callBody({ token: actionTokenSchema }),
  VerifyEmailChange: callBody({ token: actionTokenSchema }),
  ResendVerificationEmailForToken: callBody({ token: actionTokenSchema }),
  ResendVerificationEmail: callBody({ email: emailSchema, password: presentedPassword }),
  GetPaymentCountries: emptyBody,
  GetOrUpdateProfile: emptyBody,
  ChangePassword: callBody({
    oldPassword: z.string().max(PASSWORD_MAX_LENGTH),
    newPassword: passwordSchema,
  }),
  ChangeEmail: callBody({ newEmail: emailSchema }),
  DeleteAccount: emptyBody,
  GetSessions: emptyBody,
  /** The password confirms it (ASVS 7.5.2); accounts without a password send none. */
  EndOtherSessions: callBody({ password: z.string().max(PASSWORD_MAX_LENGTH).optional() }),
} as const;

/** Account calls of the desktop apps (`POST /api/apps/<Call>`, signed in with AuthToken). */
export const appAccountCalls = {
  /** The one-time token inside the login deeplink (GetAppLoginDeeplink). */
  ExchangeLoginToken: callBody({ token: actionTokenSchema }),
  /** A portal link that opens the browser signed in as the app's customer (ADR 0029). */
  CreateWebLoginCode: callBody({ path: portalPathSchema.optional() }),
} as const;

export type AccountCallName = keyof typeof accountCalls;
export type AccountCallBody<N extends AccountCallName> = z.input<(typeof accountCalls)[N]>;

export const profileSchema = z.object({
  AddressLine1: z.string(),
  City: z.string(),
  State: z.string(),
  PostalCode: z.string(),
  Country: z.string(),
});
export type Profile = z.infer<typeof profileSchema>;

export const userSchema = z.object({
  Id: z.string(),
  Email: z.string(),
  EmailVerified: z.boolean(),
  HasPassword: z.boolean(),
  Profile: profileSchema.nullable(),
});
export type User = z.infer<typeof userSchema>;

export const loginResultSchema = z.object({ User: userSchema });
export type LoginResult = z.infer<typeof loginResultSchema>;
export interface LoginResponse {
  Success: true;
  Token: string;
  Result: LoginResult;
}

/** One signed-in session of the customer (profile: active sessions). Dates in epoch ms. */
export const activeSessionSchema = z.object({
  Id: z.string(),
  Device: z.string(),
  CreatedAt: z.number(),
  LastSeenAt: z.number(),
  ExpiresAt: z.number(),
  Current: z.boolean(),
});
export type ActiveSession = z.infer<typeof activeSessionSchema>;

export const countrySchema = z.object({ Code: z.string(), Name: z.string() });
export type Country = z.infer<typeof countrySchema>;

export const appLoginDeeplinkResultSchema = z.object({ AppLoginDeeplink: z.string() });
export type AppLoginDeeplinkResult = z.infer<typeof appLoginDeeplinkResultSchema>;

/** CreateWebLoginCode's answer: the one-time code, and the portal link that carries it as `?token=`. */
export const webLoginCodeResultSchema = z.object({
  Code: z.string(),
  Url: z.string(),
  /** Epoch ms. */
  ExpiresAt: z.number(),
});
export type WebLoginCodeResult = z.infer<typeof webLoginCodeResultSchema>;

export const featuresResultSchema = z.object({ CoProducer: z.boolean() });
export type FeaturesResult = z.infer<typeof featuresResultSchema>;

export const storeSettingsSchema = z.object({
  StoreDomain: z.string(),
  StorefrontAccessToken: z.string(),
  VoiceAiProductIds: z.array(z.string()),
  ApiVersion: z.string(),
  /** True: the storefront is this service's sandbox (same origin), not Shopify. */
  Sandbox: z.boolean(),
});
export type StoreSettings = z.infer<typeof storeSettingsSchema>;

/** The answer of a call that answers nothing but success: `Result: {}`. */
export const emptyResultSchema = z.object({});

/**
 * The result of each account call (docs/api.md, Typed results). The sign-in calls also carry
 * `Token` beside `Result` for API clients (callReplies in registry.ts).
 */
export const accountResults = {
  LoginByEmail: loginResultSchema,
  LoginByToken: loginResultSchema,
  LoginBySocial: loginResultSchema,
  Logout: emptyResultSchema,
  GetAppLoginDeeplink: appLoginDeeplinkResultSchema,
  ExchangeWebLoginCode: loginResultSchema,
  UpdateUserDetails: loginResultSchema,
  register: emptyResultSchema,
  InitiatePasswordReset: emptyResultSchema,
  PasswordReset: emptyResultSchema,
  DeleteAccountConfirm: emptyResultSchema,
  VerifyEmail: loginResultSchema,
  VerifyEmailChange: loginResultSchema,
  ResendVerificationEmailForToken: emptyResultSchema,
  ResendVerificationEmail: emptyResultSchema,
  GetPaymentCountries: z.array(countrySchema),
  GetOrUpdateProfile: userSchema,
  ChangePassword: emptyResultSchema,
  ChangeEmail: emptyResultSchema,
  DeleteAccount: emptyResultSchema,
  GetSessions: z.array(activeSessionSchema),
  EndOtherSessions: emptyResultSchema,
} as const satisfies Record<AccountCallName, z.ZodType>;

export const appAccountResults = {
  ExchangeLoginToken: loginResultSchema,
  CreateWebLoginCode: webLoginCodeResultSchema,
} as const satisfies Record<keyof typeof appAccountCalls, z.ZodType>;
