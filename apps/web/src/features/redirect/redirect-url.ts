/** The target's callback URL plus return_to, which gets a leading slash if it lacks one (docs/requirements.md §2). */
export function buildRedirectUrl(callbackUrl: string, returnTo: string | null): string {
  if (!returnTo) return callbackUrl;
  return callbackUrl + (returnTo.startsWith('/') ? returnTo : `/${returnTo}`);
}
