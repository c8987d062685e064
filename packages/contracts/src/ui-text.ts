// Screen labels and titles (see ui-text/core.ts). One module per group of screens, so that a
// page loads only the texts of the screens it shows (the /login budget, ADR 0020).
export * from './ui-text/activity';
export * from './ui-text/core';
export * from './ui-text/data-export';
export * from './ui-text/downloads';
export * from './ui-text/licences';
export * from './ui-text/lists';
export * from './ui-text/passkeys';
export * from './ui-text/profile';
export * from './ui-text/second-factor';
export * from './ui-text/sign-in-alerts';
export * from './ui-text/step-up';
export * from './ui-text/token-notices';
export * from './ui-text/voice-ai';
