export * from './calls/accounts';
export * from './calls/common';
export * from './constants';
export * from './errors';
export * from './format';
export * from './messages';
export * from './validators';
