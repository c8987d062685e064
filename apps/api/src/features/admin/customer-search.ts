import {
  CUSTOMER_SEARCH_KINDS,
  CUSTOMER_SEARCH_LIMIT,
  type CustomerSearchHit,
  type CustomerSearchKind,
  invoiceTagSchema,
  LICENSE_KEY_GROUP_LENGTH,
  LICENSE_KEY_LENGTH,
  licenceKeyEnding,
  normalizeLicenseKey,
  storefrontOrderDigits,
} from '@soundid/contracts';
import { and, eq, inArray, isNotNull, like, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { devices, licenseKeys } from '../../db/licences-schema';
import { likePrefix } from '../../db/like-prefix';
import { checkoutSessions } from '../../db/payments-schema';
import { users } from '../../db/schema';
import { storefrontOrders } from '../../db/storefront-schema';
import { storefrontOrderNamed } from '../storefront/order-summaries';

/**
 * The operators' customer search (docs/api.md, Operators: AdminSearchCustomers). Each kind is one
 * or two statements on an index of migration 0015 that hands the customers over in order, so a
 * search stops after CUSTOMER_SEARCH_LIMIT + 1 of them however many rows match (a device name
 * that thousands of customers share, a short e-mail prefix): its cost does not grow with the
 * tables (docs/benchmarks.md, customer search).
 */

/** One customer a kind found, and the value that matched (a key by its last group only). */
interface Match {
  userId: string;
  matched: string;
}

type Finder = (db: Queryable, query: string, want: number) => Promise<Match[]>;

const finders: Record<CustomerSearchKind, Finder> = {
  /** An e-mail prefix; addresses are stored lower-cased (users.email). */
  async email(db, query, want) {
    return (
      db
        .select({ userId: users.id, matched: users.email })
        .from(users)
        .where(like(users.email, likePrefix(query.toLowerCase())))
        // The order of users_email_prefix_idx (text_pattern_ops): read in order, stopped at `want`.
        .orderBy(sql`${users.email} using ~<~`)
        .limit(want)
    );
  },

  /** A key in full (with or without hyphens, any case), or its last group. */
  async key(db, query, want) {
    const key = normalizeLicenseKey(query);
    const where =
      key.length === LICENSE_KEY_LENGTH
        ? eq(licenseKeys.key, key)
        : key.length === LICENSE_KEY_GROUP_LENGTH
          ? // A literal 6, as license_keys_ending_idx is written: a parameter would not match the index.
            sql`right(${licenseKeys.key}, ${sql.raw(String(LICENSE_KEY_GROUP_LENGTH))}) = ${key}`
          : undefined;
    if (!where) return [];
    const rows = await db
      .selectDistinctOn([licenseKeys.userId], { userId: licenseKeys.userId, key: licenseKeys.key })
      .from(licenseKeys)
      .where(and(where, isNotNull(licenseKeys.userId)))
      .orderBy(licenseKeys.userId)
      .limit(want);
    return rows.map((row) => ({ userId: row.userId as string, matched: licenceKeyEnding(row.key) }));
  },

  /** A device name in any case, or a machine id as the app reported it; deactivated ones too. */
  async device(db, query, want) {
    const byName = await db
      .selectDistinctOn([devices.userId], { userId: devices.userId, matched: devices.name })
      .from(devices)
      .where(sql`lower(${devices.name}) = lower(${query})`)
      .orderBy(devices.userId)
      .limit(want);
    const byMachine = await db
      .selectDistinctOn([devices.userId], { userId: devices.userId, matched: devices.machineId })
      .from(devices)
      .where(eq(devices.machineId, query))
      .orderBy(devices.userId)
      .limit(want);
    return [...byName, ...byMachine];
  },

  /**
   * A storefront order by its number (or Shopify's order id): the account it was granted to, else
   * the account of the address it was bought with.
   */
  async order(db, query, want) {
    const digits = storefrontOrderDigits(query);
    if (!digits) return [];
    const orders = await db
      .select({ name: storefrontOrders.name, userId: storefrontOrders.userId, email: storefrontOrders.email })
      .from(storefrontOrders)
      .where(storefrontOrderNamed(digits))
      .limit(want);
    const emails = orders.flatMap((o) => (o.userId === null && o.email ? [o.email] : []));
    const buyers =
      emails.length === 0
        ? []
        : await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.email, emails));
    return orders.flatMap((o) => {
      const userId = o.userId ?? buyers.find((b) => b.email === o.email)?.id;
      return userId ? [{ userId, matched: o.name }] : [];
    });
  },

  /** The invoice tag of a card payment (checkout), exactly. */
  async invoice(db, query) {
    if (!invoiceTagSchema.safeParse(query).success) return [];
    return db
      .select({ userId: checkoutSessions.userId, matched: checkoutSessions.invoiceTag })
      .from(checkoutSessions)
      .where(eq(checkoutSessions.invoiceTag, query));
  },
};

/**
 * Customers by one kind of query, or by every kind that the query's shape allows (distinct
 * customers, in the order of CUSTOMER_SEARCH_KINDS). At most CUSTOMER_SEARCH_LIMIT, with `More`
 * when there were others.
 */
export async function searchCustomers(
  db: Queryable,
  query: string,
  by?: CustomerSearchKind,
): Promise<{ Customers: CustomerSearchHit[]; More: boolean }> {
  const want = CUSTOMER_SEARCH_LIMIT + 1;
  const found = new Map<string, { kind: CustomerSearchKind; matched: string }>();
  for (const kind of by ? [by] : CUSTOMER_SEARCH_KINDS) {
    for (const match of await finders[kind](db, query.trim(), want)) {
      if (!found.has(match.userId)) found.set(match.userId, { kind, matched: match.matched });
    }
    // Each finder stops at `want` customers: one more than the limit is enough to say More.
    if (found.size >= want) break;
  }
  const chosen = [...found].slice(0, CUSTOMER_SEARCH_LIMIT);
  const rows =
    chosen.length === 0
      ? []
      : await db
          .select({
            id: users.id,
            email: users.email,
            emailVerifiedAt: users.emailVerifiedAt,
            createdAt: users.createdAt,
          })
          .from(users)
          .where(
            inArray(
              users.id,
              chosen.map(([id]) => id),
            ),
          );
  const byId = new Map(rows.map((row) => [row.id, row]));
  const customers = chosen.flatMap(([id, { kind, matched }]) => {
    const user = byId.get(id);
    return user
      ? [
          {
            Id: user.id,
            Email: user.email,
            Name: null,
            EmailVerified: user.emailVerifiedAt !== null,
            CreatedAt: user.createdAt.toISOString(),
            MatchedBy: kind,
            Matched: matched,
          },
        ]
      : [];
  });
  return { Customers: customers, More: found.size > CUSTOMER_SEARCH_LIMIT };
}
