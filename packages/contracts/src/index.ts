export * from './calls/accounts';
export * from './calls/checkout';
export * from './calls/client-reports';
export * from './calls/common';
export * from './calls/licences';
export * from './calls/voice-ai';
export * from './client-reports';
export * from './constants';
export * from './errors';
export * from './fault-schema';
export * from './field-rules';
export * from './format';
export * from './messages';
export * from './redact';
// Storefront (perpetual licence purchase)
export * from './storefront';
export * from './tokens';
export * from './validators';
