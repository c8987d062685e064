import {
  CAMPAIGN_TRIAL_DAYS,
  IDLE_SEAT_RELEASE_DAYS,
  type InfoLink,
  REFERENCE_TRIAL_DAYS,
  type UpgradeStoreLink,
  VOICE_AI_TRIAL_DAYS,
} from '@soundid/contracts';

/**
 * The product catalogue: reference data reviewed and versioned with the code (ADR 0006).
 * Rows in the database name a product by its code; ProductName is what the desktop apps send.
 */

export type ProductLine = 'reference' | 'voice';
/**
 * licence: a reference product activated on devices · bundle: a key that only the product
 * itself can activate (RegisterKey answers KeyBundleNotAllowed) · voice-perpetual: the
 * VoiceAI perpetual licence · voice-asset-pack: a VoiceAI expansion pack.
 */
export type ProductKind = 'licence' | 'bundle' | 'voice-perpetual' | 'voice-asset-pack';

export interface Product {
  code: string;
  line: ProductLine;
  kind: ProductKind;
  productName: string;
  displayName: string;
  /** Lines of the product card, one per line. */
  description: string[];
  icon: string;
  /** Devices per key (and for a live trial). */
  instancesMax: number;
  /** Length of the product's free trial, when it has one. */
  trialDays?: number;
  /** A spendable token balance also gives seats (pay-as-you-go, ADR 0009). */
  paysWithTokens?: boolean;
  infoLinks: InfoLink[];
  upgradeStoreLinks: UpgradeStoreLink[];
  /** Where to buy it (expansion packs, trial ended). */
  storeUrl: string;
  /**
   * Days an activation may go unseen before its seat is released (docs/decisions/0052-idle-seats.md);
   * IDLE_SEAT_RELEASE_DAYS when absent.
   */
  idleReleaseDays?: number;
}

const STORE = 'https://www.sonarworks.com';
const SUPPORT = 'https://support.sonarworks.com/hc/en-us/articles';

const referenceInfoLinks: InfoLink[] = [
  { Title: 'Getting started', Url: `${SUPPORT}/soundid-reference-getting-started` },
  { Title: 'System requirements', Url: `${SUPPORT}/soundid-reference-system-requirements` },
];

export const PRODUCTS: readonly Product[] = [
  {
    code: 'sid-reference',
    line: 'reference',
    kind: 'licence',
    productName: 'SoundIDReference',
    displayName: 'SoundID Reference for Speakers & Headphones',
    description: [
      'Speaker calibration with a measurement microphone',
      'Calibration profiles for 280+ headphone models',
      'Virtual Monitoring and Systemwide app included',
    ],
    icon: 'soundid-reference',
    instancesMax: 3,
    trialDays: REFERENCE_TRIAL_DAYS,
    infoLinks: referenceInfoLinks,
    upgradeStoreLinks: [],
    storeUrl: `${STORE}/soundid-reference/buy`,
  },
  {
    code: 'sid-reference-hp',
    line: 'reference',
    kind: 'licence',
    productName: 'SoundIDReferenceHeadphones',
    displayName: 'SoundID Reference for Headphones',
    description: ['Calibration profiles for 280+ headphone models', 'Systemwide app and plugin included'],
    icon: 'soundid-reference-headphones',
    instancesMax: 3,
    infoLinks: referenceInfoLinks,
    upgradeStoreLinks: [
      {
        Name: 'SoundID Reference for Speakers & Headphones',
        Description: 'Add speaker calibration: measure your room with a microphone.',
        Link: `${STORE}/upgrade/headphones-to-speakers-and-headphones`,
        ButtonText: 'Upgrade for $149',
      },
    ],
    storeUrl: `${STORE}/soundid-reference/buy`,
  },
  {
    code: 'ref4-studio',
    line: 'reference',
    kind: 'licence',
    productName: 'Reference4Studio',
    displayName: 'Reference 4 Studio Edition',
    description: ['Speaker and headphone calibration (legacy)', 'Upgrade to SoundID Reference at a reduced price'],
    icon: 'reference-4',
    instancesMax: 2,
    infoLinks: [{ Title: 'Reference 4 end of life', Url: `${SUPPORT}/reference-4-end-of-life` }],
    upgradeStoreLinks: [
      {
        Name: 'SoundID Reference for Speakers & Headphones',
        Description: 'The current version, with Virtual Monitoring and faster measurement.',
        Link: `${STORE}/upgrade/reference-4-studio-to-soundid-reference`,
        ButtonText: 'Upgrade for $99',
      },
    ],
    storeUrl: `${STORE}/soundid-reference/buy`,
  },
  {
    code: 'ref4-hp',
    line: 'reference',
    kind: 'licence',
    productName: 'Reference4Headphone',
    displayName: 'Reference 4 Headphone Edition',
    description: ['Headphone calibration (legacy)'],
    icon: 'reference-4',
    instancesMax: 2,
    infoLinks: [{ Title: 'Reference 4 end of life', Url: `${SUPPORT}/reference-4-end-of-life` }],
    upgradeStoreLinks: [
      {
        Name: 'SoundID Reference for Headphones',
        Description: 'The current headphone calibration.',
        Link: `${STORE}/upgrade/reference-4-headphone-to-soundid-reference-headphones`,
        ButtonText: 'Upgrade for $39',
      },
      {
        Name: 'SoundID Reference for Speakers & Headphones',
        Description: 'Headphones and speaker calibration.',
        Link: `${STORE}/upgrade/reference-4-headphone-to-soundid-reference`,
        ButtonText: 'Upgrade for $179',
      },
    ],
    storeUrl: `${STORE}/soundid-reference/buy`,
  },
  {
    code: 'sid-reference-bundle',
    line: 'reference',
    kind: 'bundle',
    productName: 'SoundIDReferenceBundle',
    displayName: 'SoundID Reference (hardware bundle)',
    description: ['Bundled with a partner microphone; activated inside the app'],
    icon: 'soundid-reference',
    instancesMax: 1,
    infoLinks: [],
    upgradeStoreLinks: [],
    storeUrl: `${STORE}/soundid-reference/buy`,
  },
  {
    code: 'voice-ai',
    line: 'voice',
    kind: 'voice-perpetual',
    productName: 'SoundIDVoiceAI',
    displayName: 'SoundID VoiceAI',
    description: ['Voice and instrument transformation plugin', 'Perpetual mode: unlimited local processing'],
    icon: 'soundid-voice-ai',
    instancesMax: 2,
    trialDays: VOICE_AI_TRIAL_DAYS,
    paysWithTokens: true,
    infoLinks: [
      { Title: 'How to activate SoundID VoiceAI', Url: `${SUPPORT}/soundid-voiceai-activation` },
      { Title: 'Perpetual mode and tokens', Url: `${SUPPORT}/soundid-voiceai-perpetual-and-tokens` },
    ],
    upgradeStoreLinks: [],
    storeUrl: `${STORE}/soundid-voiceai`,
  },
  ...(
    [
      ['voice-pack-pop', 'Pop Vocals Pack', 'VoiceAIPackPop'],
      ['voice-pack-choir', 'Choir & Harmonies Pack', 'VoiceAIPackChoir'],
      ['voice-pack-orchestral', 'Orchestral Instruments Pack', 'VoiceAIPackOrchestral'],
    ] as const
  ).map(
    ([code, displayName, productName]): Product => ({
      code,
      line: 'voice',
      kind: 'voice-asset-pack',
      productName,
      displayName,
      description: ['Preset expansion pack for SoundID VoiceAI'],
      icon: 'soundid-voice-ai',
      instancesMax: 0,
      infoLinks: [],
      upgradeStoreLinks: [],
      storeUrl: `${STORE}/soundid-voiceai/packs/${code.replace('voice-pack-', '')}`,
    }),
  ),
];

/** The product the ADAM Audio campaign's 60-day trial is for. */
export const CAMPAIGN_PRODUCT_CODE = 'sid-reference';
export const CAMPAIGN_ADAM = { id: 'adam-audio-60', productCode: CAMPAIGN_PRODUCT_CODE, days: CAMPAIGN_TRIAL_DAYS };

export const REFERENCE_TRIAL_PRODUCT_CODE = 'sid-reference';

/**
 * The products that are SoundID Reference (speakers and headphones, headphones only, the
 * hardware bundle): a customer holding any of them is offered no trial of it. Reference 4 is the
 * older product: its owners may still try SoundID Reference before upgrading.
 */
export const SOUNDID_REFERENCE_CODES: ReadonlySet<string> = new Set([
  'sid-reference',
  'sid-reference-hp',
  'sid-reference-bundle',
]);
export const VOICE_AI_PRODUCT_CODE = 'voice-ai';

const byCode = new Map(PRODUCTS.map((p) => [p.code, p]));
const byName = new Map(PRODUCTS.map((p) => [p.productName.toLowerCase(), p]));

export function productByCode(code: string): Product | undefined {
  return byCode.get(code);
}

/** A product by its code or its ProductName (case-insensitive), as URLs and apps name it. */
export function findProduct(codeOrName: string): Product | undefined {
  return byCode.get(codeOrName) ?? byName.get(codeOrName.toLowerCase());
}

/** Products whose licences take device activations. */
export function isActivatable(product: Product): boolean {
  return product.kind === 'licence' || product.kind === 'voice-perpetual';
}

/** Days an activation of the product may go unseen before its seat is released (ADR 0052). */
export function idleReleaseDaysOf(product: Product): number {
  return product.idleReleaseDays ?? IDLE_SEAT_RELEASE_DAYS;
}
