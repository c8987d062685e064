/**
 * Full-page navigations that leave the SPA (reload, other sites, custom-protocol app links).
 * Kept in one module so that tests can replace them: jsdom cannot navigate.
 */
export function reloadPage(): void {
  window.location.reload();
}

export function leaveTo(url: string): void {
  window.location.assign(url);
}

/** The desktop apps' custom protocols; anything else (javascript:, data:, http:) is refused. */
const APP_LINK_SCHEME = /^(soundid|sonarworks)[a-z0-9+.-]*:/i;

export function isAppLink(url: string): boolean {
  return APP_LINK_SCHEME.test(url);
}

/**
 * Opens a desktop-app link (soundid-reference://…). A top-level navigation, not a hidden iframe:
 * the service's CSP (frame-src) blocks custom protocols in frames. Browsers hand the link to the
 * app, or do nothing when none is registered, and the page stays as it is.
 */
export function openAppLink(url: string): void {
  if (isAppLink(url)) window.location.href = url;
}
