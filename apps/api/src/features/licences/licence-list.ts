import {
  type AccountLicensesByProductLine,
  type ActionButton,
  type AssetPack,
  type Device,
  downloadCenterPath,
  type LicenceNotification,
  type LicenseKey,
  licenceMessages,
  maskLicenseKey,
  type ReferenceProduct,
  toDotNetDate,
  type VoiceAiProductList,
  type VoiceAiProducts,
} from '@soundid/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { jsonRows } from '../../db/json-rows';
import type { DeviceRow, LicenceRow, LicenseKeyRow } from '../../db/licences-schema';
import { sessions, users } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { type SessionRowState, type SessionScopedRead, sessionParams, sessionStateFields } from '../accounts/sessions';
import { holdingsOf, liveLotsQuery, type TokenHoldings } from '../tokens/ledger';
import { recentSpendingField, runwayWindowStart, type TokenOutlook, tokenOutlook } from '../tokens/outlook';
import {
  PRODUCTS,
  type Product,
  productByCode,
  REFERENCE_TRIAL_PRODUCT_CODE,
  SOUNDID_REFERENCE_CODES,
  VOICE_AI_PRODUCT_CODE,
} from './catalogue';
import { actionUrls, type Deeplinks, serverActionIds } from './deeplinks';
import { activeDevicesOfUserQuery, keysOfUserQuery, licencesOfUserQuery } from './repo';
import { type Seats, seatsOf } from './service';
import { type PendingTransferRow, pendingTransfersOfUserQuery } from './transfers';
import { buyPageTokenStatus, daysLeft, expiringTokensOf, voiceAiStatus } from './voice-ai-status';

/** The customer's keys, licences, active devices and live token lots, as JSON lists of one statement. */
const holdingsFields = (db: Database) => ({
  keys: jsonRows(keysOfUserQuery(db)),
  licences: jsonRows(licencesOfUserQuery(db)),
  devices: jsonRows(activeDevicesOfUserQuery(db)),
  lots: jsonRows(liveLotsQuery(db)),
  transfers: jsonRows(pendingTransfersOfUserQuery(db)),
  /** Tokens spent since `since`: the pace behind the runway (ADR 0056). */
  spentRecently: recentSpendingField(),
});

/** The holdings of a customer (one round trip, one pooled connection), prepared once. */
const holdingsQuery = (db: Database) =>
  db
    .select(holdingsFields(db))
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('licence_list_holdings');

/**
 * The page's own read: the session row (checked by the session service) and the holdings of
 * its customer in the same statement, so that the page costs one round trip, session included.
 * The page is read on every visit.
 */
const sessionHoldingsQuery = (db: Database) =>
  db
    .select({ ...sessionStateFields, ...holdingsFields(db) })
    .from(sessions)
    .where(and(eq(sessions.id, sessionParams.sid), eq(sessions.userId, sessionParams.sub)))
    .prepare('licence_list_session_holdings');

type HoldingsRow = {
  keys: LicenseKeyRow[];
  licences: LicenceRow[];
  devices: DeviceRow[];
  lots: LotRow[];
  transfers: PendingTransferRow[];
  spentRecently: number;
};
type LotRow = Parameters<typeof holdingsOf>[0][number];

/** The customer's rows, read once for the whole page. */
interface Holdings {
  keys: LicenseKeyRow[];
  licences: LicenceRow[];
  devices: DeviceRow[];
  tokens: TokenHoldings;
  /** Expiring lots and the runway (ADR 0056). */
  outlook: TokenOutlook;
  /** The offers to pass a key on that wait for their recipient (ADR 0054), by key id. */
  transfers: Map<string, PendingTransferRow>;
}

/**
 * GetAccountLicensesByProductLine: the customer's reference products and voice AI licence in
 * the shapes of docs/requirements.md §3, with their buttons and notifications.
 */
export class LicenceList {
  private readonly holdings: ReturnType<typeof holdingsQuery>;
  private readonly sessionHoldings: ReturnType<typeof sessionHoldingsQuery>;
  constructor(
    db: Database,
    private readonly clock: Clock,
    private readonly deeplinks: Deeplinks,
  ) {
    this.holdings = holdingsQuery(db);
    this.sessionHoldings = sessionHoldingsQuery(db);
  }

  /**
   * The session-scoped read of the page, for `requireSessionWith`: the session row's state and
   * the holdings of the token's customer (placeholders `sid`, `sub`; the lists' `userId` is `sub`).
   */
  readonly readWithSession: SessionScopedRead<SessionRowState & HoldingsRow> = async ({ sid, sub }) => {
    const now = this.clock.now();
    const [row] = await this.sessionHoldings.execute({ sid, sub, userId: sub, now, since: runwayWindowStart(now) });
    return row;
  };

  /** The page from a row that `readWithSession` read (once its session proved live). */
  fromSessionRow(row: HoldingsRow): AccountLicensesByProductLine {
    return this.build(this.toHoldings(row));
  }

  private build(holdings: Holdings): AccountLicensesByProductLine {
    return {
      VoiceAIProducts: this.voiceAi(holdings),
      ReferenceProducts: this.reference(holdings),
    };
  }

  /** GetProducts' licence part: the voice AI trial offer and the same status line as the list. */
  async voiceAiOffer(
    userId: string,
  ): Promise<
    Pick<
      VoiceAiProductList,
      'ActionButtons' | 'CanStartTrial' | 'TokenStatus' | 'StatusWarning' | 'IsPerpetual' | 'ExpiringTokens'
    >
  > {
    const h = await this.holdingsOf(userId);
    const { product, licence, perpetualKeys, seats, status } = this.voiceAiStanding(h);
    const canStartTrial = !licence?.trialStartedAt && perpetualKeys.length === 0;
    return {
      ActionButtons: canStartTrial ? [this.startTrialButton(product)] : [],
      CanStartTrial: canStartTrial,
      TokenStatus: buyPageTokenStatus(status, h.outlook),
      StatusWarning: status.StatusWarning,
      IsPerpetual: seats.kind === 'Perpetual',
      ExpiringTokens: expiringTokensOf(h.outlook),
    };
  }

  /**
   * The products the customer holds or can try, as this list shows them: reference products with
   * a key, a trial started or a device; SoundID Reference while its trial is on offer; SoundID
   * VoiceAI always (a trial, or tokens bought at any time: pay-as-you-go, ADR 0009); any other
   * product a key of which is registered (a hardware bundle, an expansion pack). The download center
   * offers the installers of these (docs/decisions/0046-release-storage.md).
   */
  async productsHeldOrOffered(userId: string): Promise<ReadonlySet<string>> {
    const h = await this.holdingsOf(userId);
    const codes = new Set<string>(h.keys.map((k) => k.productCode));
    for (const product of referenceLicenceProducts())
      if (this.isReferenceProductShown(product, h)) codes.add(product.code);
    if (this.canTryReference(h)) codes.add(REFERENCE_TRIAL_PRODUCT_CODE);
    codes.add(VOICE_AI_PRODUCT_CODE);
    return codes;
  }

  private async holdingsOf(userId: string): Promise<Holdings> {
    const now = this.clock.now();
    const [row] = await this.holdings.execute({ userId, now, since: runwayWindowStart(now) });
    const nothing = { keys: [], licences: [], devices: [], lots: [], transfers: [], spentRecently: 0 };
    return this.toHoldings(row ?? nothing, now);
  }

  private toHoldings(row: HoldingsRow, now = this.clock.now()): Holdings {
    return {
      keys: row.keys,
      licences: row.licences,
      devices: row.devices,
      tokens: holdingsOf(row.lots, now),
      outlook: tokenOutlook(row.lots, row.spentRecently, now),
      transfers: new Map(row.transfers.map((t) => [t.keyId, t])),
    };
  }

  // ── Reference line ──────────────────────────────────────────────────────

  private reference(h: Holdings): AccountLicensesByProductLine['ReferenceProducts'] {
    const shown = referenceLicenceProducts().filter((product) => this.isReferenceProductShown(product, h));
    const trialProduct = productByCode(REFERENCE_TRIAL_PRODUCT_CODE);
    const canTry = trialProduct && this.canTryReference(h);
    // The download center's section of the line's first product shown, else of the product on trial offer.
    const downloads = downloadCenterPath(shown[0]?.code ?? (canTry ? trialProduct.code : undefined));
    return {
      ActionButtons: [
        linkButton(licenceMessages.download, 'Download', downloads),
        linkButton('Buy SoundID Reference', 'Buy', trialProduct?.storeUrl ?? downloadCenterPath()),
      ],
      Products: shown.map((product) => this.referenceProduct(product, h)),
      AvailableTrials: canTry ? [{ DeepLinkUrl: this.deeplinks.startTrial(trialProduct) }] : [],
    };
  }

  /** A reference product is listed when the customer has a key of it, started its trial or has a device on it. */
  private isReferenceProductShown(product: Product, h: Holdings): boolean {
    const licence = h.licences.find((l) => l.productCode === product.code);
    return (
      h.keys.some((k) => k.productCode === product.code) ||
      Boolean(licence?.trialStartedAt) ||
      (licence !== undefined && h.devices.some((d) => d.licenceId === licence.id))
    );
  }

  /** SoundID Reference's trial is offered until it starts, and never to whom holds SoundID Reference. */
  private canTryReference(h: Holdings): boolean {
    const trialLicence = h.licences.find((l) => l.productCode === REFERENCE_TRIAL_PRODUCT_CODE);
    const ownsTrialProduct = h.keys.some((k) => SOUNDID_REFERENCE_CODES.has(k.productCode));
    return !trialLicence?.trialStartedAt && !ownsTrialProduct;
  }

  private referenceProduct(product: Product, h: Holdings): ReferenceProduct {
    const keys = h.keys.filter((k) => k.productCode === product.code);
    const licence = h.licences.find((l) => l.productCode === product.code);
    const devices = licence ? h.devices.filter((d) => d.licenceId === licence.id) : [];
    const seats = seatsOf(product, keys.length, licence, this.clock.now());
    const buttons: ActionButton[] = [];
    if (seats.max > 0) buttons.push(this.activateButton(product));
    if (keys.some((k) => !k.usedForUpgradeAt)) {
      buttons.push({
        Type: 'Primary',
        ActionText: 'Upgrade',
        Functionality: 'Upgrade',
        IsEnabled: true,
        ExternalRequest: null,
      });
    }
    return {
      DisplayName: product.displayName,
      Description: product.description.join('\n'),
      Icon: product.icon,
      ProductName: product.productName,
      InstancesUsed: devices.length,
      InstancesMax: seats.max,
      IsManageable: true,
      Devices: devices.map(toDevice),
      LicenseKeys: keys.map((k) => toLicenseKey(k, actionUrls.removeLicense(k.id), h.transfers.get(k.id))),
      ActionButtons: buttons,
      InfoLinks: product.infoLinks,
      Notifications: this.notifications(product, seats, licence, keys),
    };
  }

  private notifications(
    product: Product,
    seats: Seats,
    licence: LicenceRow | undefined,
    keys: LicenseKeyRow[],
  ): LicenceNotification[] {
    const now = this.clock.now();
    const list: LicenceNotification[] = [];
    if (seats.kind === 'Trial' && seats.trialEndsAt) {
      const days = daysLeft(seats.trialEndsAt, now);
      const what = licence?.trialSource === 'campaign' ? 'Your 60-day trial' : 'Your trial';
      list.push({
        Message: `${what} of ${product.displayName} ends in ${days} day${days === 1 ? '' : 's'}.`,
        Importance: 'Medium',
        Action: linkButton('Buy now', 'Buy', product.storeUrl),
      });
    } else if (seats.kind === 'None' && licence?.trialEndsAt) {
      list.push({
        Message: `Your trial of ${product.displayName} has ended. Buy a license to keep using it.`,
        Importance: 'High',
        Action: linkButton('Buy now', 'Buy', product.storeUrl),
      });
    }
    if (keys.length > 0 && keys.every((k) => k.usedForUpgradeAt)) {
      list.push({
        Message: 'This license has been upgraded. Your new license is listed with its product.',
        Importance: 'Low',
        Action: null,
      });
    }
    return list;
  }

  private activateButton(product: Product): ActionButton {
    return {
      Type: 'DeepLink',
      ActionText: `Open ${product.displayName}`,
      Functionality: 'AppActivate',
      IsEnabled: true,
      ExternalRequest: {
        Type: 'DeepLink',
        Url: this.deeplinks.activate(product),
        ServerAction: { Id: serverActionIds.activate(product), Url: actionUrls.activate(product) },
      },
    };
  }

  private startTrialButton(product: Product): ActionButton {
    return {
      Type: 'DeepLink',
      ActionText: `Start ${product.trialDays}-day free trial`,
      Functionality: 'AppStartTrial',
      IsEnabled: true,
      ExternalRequest: {
        Type: 'DeepLink',
        Url: this.deeplinks.startTrial(product),
        ServerAction: { Id: serverActionIds.startTrial(product), Url: actionUrls.startTrial(product) },
      },
    };
  }

  // ── Voice AI ────────────────────────────────────────────────────────────

  /** The voice AI licence as the list and the buy page see it (seats include pay-as-you-go). */
  private voiceAiStanding(h: Holdings) {
    const product = productByCode(VOICE_AI_PRODUCT_CODE) as Product;
    const now = this.clock.now();
    const perpetualKeys = h.keys.filter((k) => k.productCode === product.code);
    const licence = h.licences.find((l) => l.productCode === product.code);
    const seats = seatsOf(product, perpetualKeys.length, licence, now, h.tokens.balance);
    const status = voiceAiStatus(product, seats, licence, h.tokens, h.outlook, now);
    return { product, perpetualKeys, licence, seats, status };
  }

  private voiceAi(h: Holdings): VoiceAiProducts {
    const { product, perpetualKeys, licence, seats, status } = this.voiceAiStanding(h);
    const devices = licence ? h.devices.filter((d) => d.licenceId === licence.id) : [];
    const perpetual = perpetualKeys[0];

    const buttons: ActionButton[] = [];
    if (seats.max > 0) buttons.push(this.activateButton(product));
    else if (!licence?.trialStartedAt) buttons.push(this.startTrialButton(product));
    buttons.push(linkButton(licenceMessages.download, 'Download', downloadCenterPath(product.code)));
    if (perpetual) {
      buttons.push({
        Type: 'Link',
        ActionText: licenceMessages.removePerpetual,
        Functionality: 'RemovePerpetual',
        IsEnabled: true,
        ExternalRequest: {
          Type: 'BackendThenReload',
          Url: actionUrls.removePerpetual(perpetual.id),
          ServerAction: null,
        },
      });
    }

    return {
      Title: product.displayName,
      IconString: product.icon,
      Notifications: status.Notifications,
      AssetPacks: PRODUCTS.filter((p) => p.kind === 'voice-asset-pack').map((pack) => toAssetPack(pack, h.keys)),
      LicenseStatus: {
        StatusWarning: status.StatusWarning,
        TokenStatus: status.TokenStatus,
        ExpiringTokens: expiringTokensOf(h.outlook),
        InfoLinks: product.infoLinks,
        ActionButtons: buttons,
        Devices: devices.map(toDevice),
        IsManageable: seats.max > 0 || devices.length > 0,
        InstancesUsed: devices.length,
        OfflineLicenseKey: perpetual ? maskLicenseKey(perpetual.key) : null,
      },
    };
  }
}

function referenceLicenceProducts(): Product[] {
  return PRODUCTS.filter((p) => p.line === 'reference' && p.kind === 'licence');
}

function linkButton(text: string, functionality: 'Download' | 'Buy', url: string): ActionButton {
  return {
    Type: 'Link',
    ActionText: text,
    Functionality: functionality,
    IsEnabled: true,
    ExternalRequest: { Type: 'Link', Url: url, ServerAction: null },
  };
}

function toDevice(row: DeviceRow): Device {
  return {
    DeviceId: row.id,
    Name: row.name,
    TimeActivated: toDotNetDate(row.activatedAt),
    LastSeen: row.lastSeenAt ? toDotNetDate(row.lastSeenAt) : null,
    AppVersion: row.appVersion,
    Os: row.os,
    ActionButtons: [
      {
        Type: 'Link',
        ActionText: 'Deactivate',
        Functionality: 'Deactivate',
        IsEnabled: true,
        ExternalRequest: { Type: 'BackendThenReload', Url: actionUrls.deactivateDevice(row.id), ServerAction: null },
      },
    ],
  };
}

function toLicenseKey(row: LicenseKeyRow, removeUrl: string, transfer?: PendingTransferRow): LicenseKey {
  return {
    FormattedKey: maskLicenseKey(row.key),
    ActionButtons: [
      {
        Type: 'Link',
        ActionText: 'Remove',
        Functionality: 'Remove',
        IsEnabled: true,
        ExternalRequest: { Type: 'BackendThenReload', Url: removeUrl, ServerAction: null },
      },
    ],
    IsUsedForUpgrade: row.usedForUpgradeAt !== null,
    ...(transfer
      ? { Transfer: { TransferId: transfer.id, Email: transfer.toEmail, ExpiresAt: toDotNetDate(transfer.expiresAt) } }
      : {}),
  };
}

function toAssetPack(pack: Product, keys: LicenseKeyRow[]): AssetPack {
  const owned = keys.find((k) => k.productCode === pack.code);
  return {
    Title: pack.displayName,
    LicenseKey: owned ? maskLicenseKey(owned.key) : null,
    StoreUrl: pack.storeUrl,
    RemoveLicenseAction: owned ? { Url: actionUrls.removeAssetPack(owned.id) } : null,
  };
}
