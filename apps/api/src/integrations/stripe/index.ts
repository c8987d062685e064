export { StripeCheckoutProvider } from './stripe-provider';
export type * from './types';
