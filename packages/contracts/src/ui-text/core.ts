/**
 * Screen labels and titles. The spec's messages (validation, notices, faults) come from
 * @soundid/contracts; these are the words around them. The ones the spec names word for word
 * live here so that the web and any other client share them.
 */
export const titles = {
  login: 'Log in',
  signup: 'Sign up',
  resetPassword: 'Reset password',
  deleteAccount: 'Delete account',
  verifyEmail: 'Verify email',
  verifyEmailChange: 'Confirm email change',
  reportSignIn: 'Secure your account',
  trialThankYou: 'Trial activated',
  adamAudio: 'Claim your 60-day trial',
  profile: 'Profile',
  setPassword: 'Set password',
  products: 'Licenses & Devices',
  launch: 'Launch app',
  addLicense: 'Add activation key to activate and manage your license.',
  redirect: 'Redirecting...',
  loading: 'Loading',
  logout: 'Log out',
  notFound: 'Page Not Found',
  transactions: 'SoundID VoiceAI Transactions',
} as const;

export const text = {
  skipToContent: 'Skip to content',
  loading: 'Loading…',
  close: 'Close',
  cancel: 'Cancel',
  save: 'Save',
  change: 'Change',
  email: 'Email',
  password: 'Password',
  repeatPassword: 'Repeat password',
  showPassword: 'Show password',
  hidePassword: 'Hide password',

  loginButton: 'Log in',
  loginWith: (provider: string) => `Continue with ${provider}`,
  orUseEmail: 'or use your email',
  /** The login page's passkey button (ADR 0039); the rest of the passkey texts load on click. */
  passkeySignIn: 'Sign in with a passkey',
  forgotPasswordLink: 'Forgot password?',
  noAccount: "Don't have an account?",
  signupLink: 'Sign up',
  resendVerificationLink: 'Resend verification link',

  signupButton: 'Sign up',
  haveAccount: 'Already have an account?',
  loginLink: 'Log in',
  pleaseVerifyEmail: 'Please verify your email',
  verificationSentTo: (email: string) =>
    `We have sent a verification link to ${email}. Open it to activate your account.`,

  forgotPasswordHeading: 'Forgot your password?',
  forgotPasswordIntro: 'Enter the email address of your account and we will send you a link to set a new password.',
  sendLink: 'Send link',
  pleaseCheckInbox: 'Please check your inbox',
  resetLinkSentTo: (email: string) => `If an account exists for ${email}, a link to reset the password is on its way.`,
  backToLogin: 'Back to log in',
  setNewPasswordHeading: 'Set a new password',
  newPassword: 'New password',
  repeatNewPassword: 'Repeat new password',
  savePassword: 'Save password',

  verifyingEmail: 'Verifying your email address…',
  verificationExpiredHint: 'The link is valid for 24 hours. We can send you a new one.',
  resendLink: 'Resend link',
  confirmingEmailChange: 'Confirming your new email address…',
  deletingAccount: 'Deleting your account…',
  goodbyeHeading: 'Goodbye',

  launchHeading: 'Launching SoundID Reference',
  launchIntro: 'If the app did not open, make sure it is installed and try again.',
  retry: 'Retry',
  goToDownloads: 'Go to downloads',

  addLicenseHeading: titles.addLicense,
  licenseKey: 'License activation key',
  licenseKeyHint: 'Four groups of 6 letters or digits',
  registerKey: 'Register key',
  keyOwnedBy: (email: string) => `This key is registered to ${email}.`,

  redirectingTo: (name: string) => `Redirecting to ${name} shortly...`,
  redirectManualLink: 'Continue now',

  trialOpeningApp: 'We are opening SoundID Reference for you.',
  serialNumber: 'Monitor serial number',
  claimTrial: 'Claim trial',
  adamAudioIntro: 'Enter the serial number of your ADAM Audio monitor to claim a 60-day SoundID Reference trial.',

  pageNotFound: 'Page not found',
  /** The not-found page's link (spec: "shows an Index link"); that page only. */
  indexLink: 'Index',
  /** Where a page that cannot go on sends the customer back to the portal's start. */
  homeLink: 'Go to My SoundID',

  nav: {
    primary: 'Main',
    products: 'Licenses & Devices',
    profile: 'Profile',
    store: 'Store',
    downloads: 'Downloads',
    support: 'Support',
    helpCenter: 'Help center',
    blog: 'Blog',
    company: 'Company',
    about: 'About us',
    careers: 'Careers',
    contact: 'Contact',
    account: 'Account',
    logIn: 'Log in',
    signUp: 'Sign up',
    logOut: 'Log out',
    openMenu: 'Open menu',
    closeMenu: 'Close menu',
  },
  footer: {
    label: 'Footer',
    privacy: 'Privacy policy',
    terms: 'Terms of use',
    copyright: (year: number) => `© ${year} Sonarworks`,
  },
  notificationsRegion: 'Notifications',
  errorsRegion: 'Errors',
  // Account review: the link after a fault message that has a help article
  learnMore: 'Learn more',
} as const;

// ── Voice AI buy page and card checkout (voice-buy) ─────────────────────────
export const voiceAiBuyTitles = {
  buyPage: 'SoundID VoiceAI Tokens',
} as const;

// ── Licenses & Devices, offline activation, voice AI activation (licences-web) ──
export const licencesTitles = {
  voiceAiActivate: 'How to activate SoundID VoiceAI',
  /** The page of a licence offer's mailed link (ADR 0054). */
  licenceTransfer: 'A license offered to you',
} as const;

// ── A desktop app's portal link while another customer is signed in (ADR 0029) ──
export const sessionSwitchText = {
  title: 'Switch account?',
  question: (currentEmail: string, linkEmail: string) =>
    `You are signed in as ${currentEmail}. The link you opened signs in as ${linkEmail}. Sign out ${currentEmail} and continue as ${linkEmail}?`,
  switch: (linkEmail: string) => `Continue as ${linkEmail}`,
  stay: (currentEmail: string) => `Stay signed in as ${currentEmail}`,
} as const;
