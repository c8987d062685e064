/** Pages of the maker's main site that the shell links to (outside this app). */
export const externalLinks = {
  store: 'https://www.sonarworks.com/store',
  support: 'https://support.sonarworks.com',
  blog: 'https://www.sonarworks.com/blog',
  about: 'https://www.sonarworks.com/about',
  careers: 'https://www.sonarworks.com/careers',
  contact: 'https://www.sonarworks.com/contact',
  privacy: 'https://www.sonarworks.com/privacy-policy',
  terms: 'https://www.sonarworks.com/terms-of-use',
} as const;

/** The download center, a route of this SPA (ADR 0046); a product's section: downloadCenterPath (contracts). */
export { DOWNLOAD_CENTER_PATH } from '@soundid/contracts';

/**
 * Help articles the Licenses & Devices page links to (docs/requirements.md §8: upgrade popup). The deactivation
 * limit's Learn more is FAULT_HELP_LINKS.KeyRevokeOverLimit (@soundid/contracts).
 */
export const licenceHelpLinks = {
  activateDevice: 'https://support.sonarworks.com/hc/en-us/articles/how-to-activate-a-device',
  upgrades: 'https://support.sonarworks.com/hc/en-us/articles/how-to-upgrade-your-license',
  cancelOrder: 'https://support.sonarworks.com/hc/en-us/articles/how-to-cancel-an-order',
  contactSupport: 'https://support.sonarworks.com/hc/en-us/requests/new',
} as const;
