import type { Profile, User } from '@soundid/contracts';
import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { users } from '../../db/schema';
import { totpEnabledFor, totpFactors } from '../../db/second-factor-schema';
import { reservationColumns, reserveInsert } from './attempt-limits';

export type UserRow = typeof users.$inferSelect;

/** One account per address, whatever its case or surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The account of a normalised address (placeholder `email`), inside a transaction or not.
 */
export const userByEmailQuery = (db: Queryable) =>
  db
    .select()
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1);

/**
 * A sign-in's first statement: the attempt reserved under the lockout (ADR 0028; see
 * `AttemptLimiter.reserve`) and the account it checks the password of, with whether it has a
 * second factor (ADR 0037), in one round trip (docs/benchmarks.md, sign-in with TOTP). The
 * account is read even when the attempt is refused; it is then not used. Placeholders: scope,
 * key (the normalised address), now, windowStart, max.
 */
export const signInReserveAndFindQuery = (db: Queryable) => {
  const reserved = db.$with('reserved').as(reserveInsert(db).returning(reservationColumns));
  return db
    .with(reserved)
    .select({
      count: reserved.count,
      lockedUntil: reserved.lockedUntil,
      user: getTableColumns(users),
      secondFactor: sql<boolean>`exists (select 1 from ${totpFactors} where ${totpEnabledFor(users.id)})`,
    })
    .from(reserved)
    .leftJoin(users, eq(users.email, sql.placeholder('key')));
};

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const [row] = await userByEmailQuery(db).execute({ email: normalizeEmail(email) });
  return row;
}

export async function findUserById(db: Queryable, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export function toProfile(row: UserRow): Profile {
  return {
    AddressLine1: row.addressLine1,
    City: row.city,
    State: row.state,
    PostalCode: row.postalCode,
    Country: row.country,
  };
}

/** The wire form of a user (docs/requirements.md §3): Email, EmailVerified, HasPassword, Profile, Id. */
export function toUser(row: UserRow, withProfile = true): User {
  return {
    Id: row.id,
    Email: row.email,
    EmailVerified: row.emailVerifiedAt !== null,
    HasPassword: row.passwordHash !== null,
    Profile: withProfile ? toProfile(row) : null,
  };
}

/** Unique-violation from either driver (a concurrent sign-up or e-mail change won the race). */
export function isUniqueViolation(error: unknown): boolean {
  const code =
    (error as { code?: string; cause?: { code?: string } })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return code === '23505';
}
