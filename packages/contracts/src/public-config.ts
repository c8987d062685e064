import { z } from 'zod';
import { SOCIAL_PLATFORMS } from './calls/accounts';

/**
 * A page that the redirect screen may send a signed-in customer on to (REDIRECT_TARGETS); the
 * service reads them from its configuration with this schema and sends them in PublicConfig.
 */
export const redirectTargetSchema = z.object({
  Id: z.string().regex(/^[a-z0-9-]+$/),
  Name: z.string().min(1),
  CallbackUrl: z.url(),
});
export type RedirectTarget = z.infer<typeof redirectTargetSchema>;

/**
 * GET /api/config: what the service lets the browser know about this deployment before it
 * renders (build target, providers, dev mode). The service also writes it into every page it
 * serves (boot data), so this one schema types both.
 */
export const publicConfigSchema = z.object({
  AppTarget: z.string(),
  SocialProviders: z.object({
    Google: z.object({ ClientId: z.string() }).optional(),
    Apple: z.object({ ClientId: z.string() }).optional(),
    Facebook: z.object({ AppId: z.string() }).optional(),
  }),
  SupportChatScriptUrl: z.string().nullable().optional(),
  DevelopmentEnv: z.boolean(),
  /** The Licenses & Devices page offers offline activation (development, or configured: ADR 0013). */
  OfflineActivation: z.boolean(),
  RedirectTargets: z.array(redirectTargetSchema),
  /** The social sign-in platforms whose token checks the service has configured. */
  ConfiguredSocialPlatforms: z.array(z.enum(SOCIAL_PLATFORMS)),
  /** The service's main host (PUBLIC_URL's); a checkout started elsewhere sends its own return URL. */
  MainHost: z.string().optional(),
});
export type PublicConfig = z.infer<typeof publicConfigSchema>;
