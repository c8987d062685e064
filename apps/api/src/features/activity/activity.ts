import { ACTIVITY_PAGE_SIZE, type AccountEvent, isDisputable, type PagedResult } from '@soundid/contracts';
import { accountEventText } from '@soundid/contracts/ui-text';
import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type AccountEventRow, accountEvents } from '../../db/activity-schema';
import type { Database } from '../../db/client';
import { describeDevice } from '../accounts/user-agent';
import { productByCode } from '../licences/catalogue';

const reports = alias(accountEvents, 'reports');

/**
 * My activity (docs/decisions/0055-my-activity.md): a page of the account's entries, newest
 * first. Every query is scoped by the signed-in account (ASVS 8.2.2); the page is read through
 * the index (user_id, at desc, id desc) and its offset is bounded by ACTIVITY_MAX_PAGE.
 */
export class AccountActivity {
  constructor(private readonly db: Database) {}

  async page(userId: string, page: number): Promise<PagedResult<AccountEvent>> {
    const [total] = await this.db.select({ n: count() }).from(accountEvents).where(eq(accountEvents.userId, userId));
    const rows = await this.db
      .select({ entry: accountEvents, reported: isNotNull(reports.id).mapWith(Boolean) })
      .from(accountEvents)
      .leftJoin(reports, and(eq(reports.reportedEventId, accountEvents.id), eq(reports.userId, userId)))
      .where(eq(accountEvents.userId, userId))
      .orderBy(desc(accountEvents.at), desc(accountEvents.id))
      .limit(ACTIVITY_PAGE_SIZE)
      .offset((page - 1) * ACTIVITY_PAGE_SIZE);
    return {
      PageItems: rows.map(({ entry, reported }) => toItem(entry, reported)),
      PageNumber: page,
      PageCount: Math.max(1, Math.ceil((total?.n ?? 0) / ACTIVITY_PAGE_SIZE)),
    };
  }
}

/**
 * An entry in the customer's words (My activity, the data export): its device is a machine's name
 * or a session's browser, its product the catalogue's display name.
 */
export function describeAccountEvent(entry: AccountEventRow): { text: string; device: string | undefined } {
  const device = entry.device ?? (entry.userAgent ? describeDevice(entry.userAgent) : undefined);
  const product = entry.productCode ? (productByCode(entry.productCode)?.displayName ?? entry.productCode) : undefined;
  return { text: accountEventText(entry.kind, { product, device, detail: entry.detail }), device };
}

function toItem(entry: AccountEventRow, reported: boolean): AccountEvent {
  const { text, device } = describeAccountEvent(entry);
  return {
    Id: String(entry.id),
    Kind: entry.kind,
    Text: text,
    At: entry.at.getTime(),
    ...(device ? { Device: device } : {}),
    ...(entry.ip ? { Ip: entry.ip } : {}),
    CanDispute: !reported && isDisputable(entry.kind, entry.detail),
  };
}
