/** How this client names itself to the account service (API contract, Headers). */
export const SOFTWARE_HEADER = 'MySoundID-Web/1.0';
export const BRANDING_HEADER = 'SoundID';

/** Script-readable cookies the portal's other sites set; their values are forwarded as headers. */
export const DEVELOPMENT_ENV_COOKIE = 'DevelopmentEnv';
export const TRACKING_COOKIE = 'UTI';
export const PAYMENTS_ENV_COOKIE = 'PaymentsEnv';

/** Local storage key of the request headers saved from the `headers` query. */
export const SAVED_HEADERS_STORAGE_KEY = 'soundid.headers';

/** The desktop app's custom protocol, opened after a trial was activated on the website. */
export const REFERENCE_TRIAL_ACTIVATED_LINK = 'soundid-reference://trial-activated';
