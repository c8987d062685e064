// The profile's data download and the deletion panel's summary (ADR 0038): apart from core.ts so
// that only the profile loads them (ADR 0020).

const tokens = (n: number) => `${n.toLocaleString('en-US')} ${n === 1 ? 'token' : 'tokens'}`;
const keys = (n: number) => `${n} ${n === 1 ? 'key' : 'keys'}`;

export const dataExportText = {
  heading: 'Your data',
  intro:
    'Download a copy of everything we hold about you: your profile, sign-in methods, sessions and the devices you signed in from, licenses, keys and devices, tokens and their use, orders and payments, and the emails we sent you.',
  downloadJson: 'Download my data (JSON)',
  downloadPage: 'Download as a readable page (HTML)',
  downloaded: 'Your data has been downloaded.',
  jsonFileName: (day: string) => `my-soundid-data-${day}.json`,
  pageFileName: (day: string) => `my-soundid-data-${day}.html`,
  pageTitle: 'My SoundID: your data',
  exportedAt: 'Exported at',
  none: 'None',
  sections: {
    Profile: 'Profile',
    SignInMethods: 'Sign-in methods',
    Sessions: 'Sessions',
    SeenDevices: 'Devices you signed in from',
    Licences: 'Licenses',
    Keys: 'Keys',
    Devices: 'Devices',
    Upgrades: 'Upgrades',
    LicenceTransfers: 'Licenses passed on',
    CampaignClaims: 'Campaign trials',
    Activity: 'My activity',
    TokenLots: 'Tokens',
    TokenSpends: 'Token use',
    TokenWithdrawals: 'Tokens taken back',
    NotificationPreferences: 'Token emails you chose',
    TokenNotices: 'Token expiry and low balance notices',
    Checkouts: 'Token purchases',
    PaymentMismatches: 'Payments not as offered',
    StorefrontOrders: 'Store orders',
    Mails: 'Emails sent to you',
    DeletionSummary: 'What deleting your account would end',
  } as Record<string, string>,
  /** The delete-account panel, above its confirm buttons. */
  deletionLoses: 'Deleting your account also ends:',
  lostLicence: (name: string, keyCount: number, trialEndsAt: string | null) =>
    [name, keyCount > 0 ? keys(keyCount) : '', trialEndsAt ? `trial until ${trialEndsAt}` : '']
      .filter(Boolean)
      .join(', '),
  lostTokens: (n: number, expiresAt: string) => `${tokens(n)} unspent, valid until ${expiresAt}`,
};
