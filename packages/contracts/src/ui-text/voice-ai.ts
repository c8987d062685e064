// Voice AI buy page and card checkout (voice-buy): apart from core.ts so that only those screens load them.

export const voiceAiBuyText = {
  heading: 'Choose Perpetual or Pay-as-you-go',
  toProducts: '← Back to Licenses & Devices',
  loading: 'Loading products',
  trialHeading: 'Try it free for seven days',
  trialText: 'Start your seven-day free trial of SoundID VoiceAI. No credit card required.',
  perpetualHeading: 'Perpetual mode',
  perpetualUnlimited: 'Unlimited processing',
  perpetualPriceLoading: 'Loading price…',
  perpetualPriceUnavailable: 'Price not available right now.',
  compareAtPrice: 'Regular price',
  currentPrice: 'Price',
  buyPerpetual: 'Buy Perpetual mode',
  payAsYouGoHeading: 'Pay-as-you-go',
  bundlesLabel: 'Token packs',
  mostPopular: 'Most popular',
  noBundles: 'Token packs are not available right now. Please try again later.',
  /** The Perpetual card of an owner (ADR 0056): no Buy button, the mode is on. */
  perpetualActive: 'Perpetual mode is active',
} as const;

export const checkoutText = {
  heading: 'Purchase tokens',
  summary: (title: string, price: string) => `${title}: ${price}`,
  initializing: 'Preparing the payment form',
  backToBuyPage: 'Back to token packs',
  sandboxNotice: 'Sandbox checkout: no real payment is made. Use one of the test cards below.',
  testCardsHeading: 'Test cards',
  /** What each of the sandbox's test cards (SANDBOX_TEST_CARDS) does. */
  testCardOutcomes: {
    succeeds: 'payment succeeds',
    declined: 'card is declined',
    insufficientFunds: 'declined: insufficient funds',
  },
  testCardHint: 'Any future expiry date and any three-digit CVC.',
  email: 'Email',
  cardNumber: 'Card number',
  expiry: 'Expiry (MM/YY)',
  cvc: 'CVC',
  pay: (price: string) => `Pay ${price}`,
} as const;

export const historyText = {
  heading: 'Transaction history',
  toProducts: 'Go to Licenses & Devices →',
  buyMore: 'Buy more tokens',
  tabsLabel: 'History',
  purchaseTab: 'Purchase history',
  usageTab: 'Usage history',
  loading: 'Loading history',
  empty: 'Nothing here yet.',
  purchaseColumns: ['Amount', 'Type', 'Order date', 'Expiry date', 'Remaining'],
  /** The purchase row's receipt link (ADR 0058): a card purchase's PDF. */
  receiptLink: 'Receipt',
  receiptLinkLabel: (orderDate: string) => `Receipt of the purchase of ${orderDate} (PDF)`,
  usageColumns: ['Tokens spent', 'Token type', 'Date'],
  /** After the spec's columns (ADR 0056, 0058): what processing spent of each lot, and its receipt. */
  purchaseMoreColumns: ['Spent', 'Receipt'],
  /** After the spec's columns (ADR 0056): the job's processing time and the lots that paid it. */
  usageMoreColumns: ['Processing time', 'Paid from'],
  expired: 'Expired',
  expiredUnused: (tokens: number) => `${tokens.toLocaleString('en-US')} unused`,
  seconds: (seconds: number) => `${seconds.toLocaleString('en-US')} s`,
  showPayers: (count: number) => `Show ${count} ${count === 1 ? 'lot' : 'lots'}`,
  hidePayers: 'Hide',
  payersLabel: 'Paid from',
  payer: (tokens: number, type: string, orderDate: string) =>
    `${tokens.toLocaleString('en-US')} tokens: ${type}, ${orderDate}`,
} as const;

export const postCheckoutText = {
  loading: 'Loading',
  successTitle: 'Payment successful!',
  successThanks: 'Thank you for your purchase.',
  successInvoice: 'The invoice has been sent to your registered email address.',
  successTokens: 'Your tokens will be added to your account shortly.',
  stepsHeading: 'Get started',
  steps: [
    'Download and install the SoundID VoiceAI plugin.',
    'Launch your DAW and load the plugin on your vocal tracks.',
    'Log in with your SoundID account.',
    'Record and process your audio.',
  ],
  failedTitle: 'Payment unsuccessful',
  failedText: 'Looks like there was an issue with your payment. Please try again later or contact our support team!',
  unknownTitle: 'Ooops. Something went wrong!',
  unknownText: 'An error occured. Reload this page or contact our support team!',
} as const;
