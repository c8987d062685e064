import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { addressSchema, emailSchema, passwordSchema } from '../validators';
import { actionTokenSchema, callBody, emptyBody } from './common';

/** A password being checked (not chosen): any length up to the maximum, so old accounts still sign in. */
const presentedPassword = z.string().min(1).max(PASSWORD_MAX_LENGTH);

export const SOCIAL_PLATFORMS = ['Google', 'Apple', 'Facebook'] as const;
export type SocialPlatform = (typeof SOCIAL_PLATFORMS)[number];
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

export interface LoginResult {
  User: User;
}
export interface LoginResponse {
  Success: true;
  Token: string;
  Result: LoginResult;
}

/** One signed-in session of the customer (profile: active sessions). Dates in epoch ms. */
export interface ActiveSession {
  Id: string;
  Device: string;
  CreatedAt: number;
  LastSeenAt: number;
  ExpiresAt: number;
  Current: boolean;
}

export interface Country {
  Code: string;
  Name: string;
}

export interface AppLoginDeeplinkResult {
  AppLoginDeeplink: string;
}

export interface FeaturesResult {
  CoProducer: boolean;
}

export interface StoreSettings {
  StoreDomain: string;
  StorefrontAccessToken: string;
  VoiceAiProductIds: string[];
  ApiVersion: string;
  /** True: the storefront is this service's sandbox (same origin), not Shopify. */
  Sandbox: boolean;
}
