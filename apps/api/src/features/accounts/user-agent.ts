// What a User-Agent header says of the client, in words a customer reads (sessions, new-device
// mails, the data export).

/** The browser a User-Agent names, without its version; undefined for anything else. */
export function browserOf(userAgent: string): string | undefined {
  if (/Edg\//.test(userAgent)) return 'Edge';
  if (/Firefox\//.test(userAgent)) return 'Firefox';
  if (/Chrome\//.test(userAgent)) return 'Chrome';
  if (/Safari\//.test(userAgent)) return 'Safari';
  return undefined;
}

/** The operating system a User-Agent names, if any. */
export function operatingSystemOf(userAgent: string): string | undefined {
  if (/Windows/.test(userAgent)) return 'Windows';
  if (/iPhone|iPad/.test(userAgent)) return 'iOS';
  if (/Mac OS X|macOS/.test(userAgent)) return 'macOS';
  if (/Android/.test(userAgent)) return 'Android';
  if (/Linux/.test(userAgent)) return 'Linux';
  return undefined;
}

/** A short, readable name for a session's client: "Chrome on macOS", or the app's own name. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = browserOf(userAgent);
  const os = operatingSystemOf(userAgent);
  if (browser) return os ? `${browser} on ${os}` : browser;
  return userAgent.slice(0, 60);
}
