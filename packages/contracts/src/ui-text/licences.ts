// Licenses & Devices, offline activation, voice AI activation (licences-web): apart from core.ts so that
// only those screens load them.
import { licenceMessages } from '../licence-messages';
import { licencesTitles } from './core';

export const licencesText = {
  activateHeading: licencesTitles.voiceAiActivate,
  loading: 'Loading your licenses and devices…',
  withCode: (message: string, code: number | string) => `${message} (code ${code})`,
  infoLinks: 'Useful links',
  notifications: 'Notices',
  voiceAiReady: 'Your SoundID VoiceAI license is ready to be activated on this computer.',
  activateVoiceAi: 'Activate SoundID VoiceAI',

  voiceAi: {
    perpetualKey: 'Perpetual license key',
    manageDevices: (count: number) => `Manage devices (${count})`,
    removePerpetualQuestion:
      'Remove the Perpetual license from your account? Devices activated with it will be deactivated.',
    removePerpetualConfirm: 'Yes, remove Perpetual',
    packColumns: ['Pack', 'Activation key'],
    packNotOwned: 'Not owned',
    removePack: 'Remove',
    removePackQuestion: (title: string) => `Remove the activation key of ${title} from your account?`,
    removePackConfirm: 'Yes, remove',
    buyPack: 'Buy',
    opensInNewTab: '(opens in a new tab)',
  },

  reference: {
    heading: 'SoundID Reference',
    productsLabel: 'Reference products',
    noProducts: 'No SoundID Reference licenses yet. Register an activation key to see yours here.',
    removeToggle: 'Remove license',
    offlineToggle: 'Offline activation',
  },

  devices: {
    heading: (product: string) => `Devices of ${product}`,
    columns: ['Device name', 'Registered', 'Actions'],
    deactivate: 'Deactivate',
    deactivateQuestion: (device: string) => `Deactivate ${device}? It will need to be activated again to be used.`,
    deactivateConfirm: 'Yes, deactivate',
    guideLink: 'How to activate a device',
    reportLost: 'Report lost or stolen',
    reportLostQuestion: (device: string) =>
      `Report ${device} lost or stolen? Its seat is freed at once, without using a deactivation, and it can no longer use this license.`,
    reportLostReason: 'What happened',
    reportLostReasons: { lost: 'It was lost', stolen: 'It was stolen' },
    reportLostNote: 'Anything support should know (optional)',
    reportLostConfirm: 'Report and free the seat',
  },

  licenseSelect: 'License',
  chooseLicense: 'Choose a license',

  upgrade: {
    heading: (product: string) => `Upgrade ${product}`,
    storeHeading: 'Upgrade in the store',
    noStoreUpgrades: 'There are no store upgrades for this license.',
    codeHeading: 'Have an upgrade code?',
    codeLabel: 'Upgrade code',
    codeHint: 'For example UPG-ABCD1234',
    apply: 'Apply upgrade code',
    alreadyUpgraded: 'This license has already been used for an upgrade.',
    incompatibleAdvice:
      'Please choose the upgrade code that was made for the license you are upgrading. If you bought the wrong upgrade, you can cancel the order or ask our support team for help.',
    howUpgradesWork: 'How upgrades work',
    cancelOrder: 'Cancel the order',
    contactSupport: 'Contact support',
  },

  /** Passing a licence on (docs/decisions/0054-licence-transfer.md). */
  transfer: {
    toggle: 'Pass this license on',
    heading: (product: string) => `Pass ${product} on`,
    intro: (days: number) =>
      `Give this license to someone else: we email them a link, and it moves to their account when they accept. Your computers beyond the seats you have left are signed out, without using a deactivation. A license can be passed on once in ${days} days.`,
    emailLabel: 'Their email address',
    submit: 'Send the offer',
    pending: (email: string, until: string) => `Offered to ${email}, until ${until}.`,
    cancel: 'Cancel the offer',
  },

  transferOffer: {
    loading: 'Loading the offer…',
    offer: (from: string, product: string) => `${from} offers you their ${product} license.`,
    key: (key: string) => `License key ${key}`,
    until: (date: string) => `The offer is valid until ${date}.`,
    sentTo: (email: string) => `It was sent to ${email}: accept it while signed in with that address.`,
    accept: 'Accept the license',
    /** Licenses & Devices: the open offers to the customer's address (ADR 0054, addendum). */
    incomingHeading: 'Licenses offered to you',
    incoming: (from: string, product: string, key: string, until: string) =>
      `${from} offers you their ${product} license (${key}), until ${until}.`,
    acceptNamed: (product: string) => `Accept ${product}`,
    over: {
      accepted: 'This offer has already been accepted.',
      cancelled: 'This offer was cancelled by its sender.',
      expired: licenceMessages.licenceTransferExpired,
    },
  },

  removal: {
    heading: (product: string) => `Remove ${product}`,
    remove: 'Remove',
    question: 'Remove this license from your account? Devices activated with it will be deactivated.',
    confirm: 'Yes, remove license',
  },

  offline: {
    heading: 'Offline activation',
    intro:
      'Activate a computer without internet: upload the request file (.swinfo) the app saved, then take the license file back to that computer.',
    fileLabel: 'License request file (.swinfo)',
    fileHint: 'The app writes it when you choose offline activation.',
    fileMissing: 'Choose the .swinfo file the app saved.',
    downloaded: (fileName: string) => `${fileName} has been downloaded. Open it in the app on the offline computer.`,
    activateHeading: 'Activate a computer',
    deactivateHeading: 'Deactivate a computer',
    deactivateIntro:
      'For a computer that stays offline: deactivate it in the app, which removes its license file and saves a deactivation file (.swdeactivate). Upload it here to free its seat without using a deactivation; you get a receipt back.',
    deactivateFileLabel: 'Deactivation file (.swdeactivate)',
    deactivateFileHint: 'The app writes it when you deactivate offline.',
    deactivateFileMissing: 'Choose the .swdeactivate file the app saved.',
    deactivateSubmit: 'Deactivate and download receipt',
    /** After the service's Message ("… was deactivated: its seat is free, …"). */
    receiptDownloaded: (message: string, fileName: string) =>
      `${message} The receipt ${fileName} has been downloaded: keep it with the computer's records.`,
  },

  activate: {
    intro: 'Follow these steps to activate SoundID VoiceAI on this computer.',
    trialIntro: 'Follow these steps to start your free SoundID VoiceAI trial on this computer.',
    steps: [
      'Download and install SoundID VoiceAI from the download center.',
      'Open SoundID VoiceAI with the button below. Your browser may ask to open the app: allow it.',
      'Sign in with your SoundID account in the app, if it asks.',
      'Load the plugin in your DAW and start processing.',
    ],
    open: 'Open SoundID VoiceAI',
    openTrial: 'Start the trial in SoundID VoiceAI',
    attempted: 'If the app did not open, make sure it is installed, then retry.',
    backToProducts: 'Back to Licenses & Devices',
  },
} as const;
