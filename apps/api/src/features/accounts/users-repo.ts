import type { Profile, User } from '@soundid/contracts';
import { eq, sql } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

/** One account per address, whatever its case or surrounding spaces. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/**
 * The account of a normalised address (placeholder `email`): run once inside a transaction, or
 * prepared once by sign-in (`userByEmailQuery(db).prepare(...)`), one definition for both.
 */
export const userByEmailQuery = (db: Queryable) =>
  db
    .select()
    .from(users)
    .where(eq(users.email, sql.placeholder('email')))
    .limit(1);

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
