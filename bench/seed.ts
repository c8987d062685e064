import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { hashPassword } from '../apps/api/src/features/accounts/passwords';
import { totpSecretBox } from '../apps/api/src/features/accounts/second-factor';
import { systemRandom } from '../apps/api/src/lib/clock';

export const BENCH_PASSWORD = 'bench password 1';
export const benchEmail = (i: number) => `bench${i}@example.com`;

/** What every seeded customer holds, at any scale (so that only the table sizes differ). */
export const PER_CUSTOMER = {
  keys: 2,
  licences: 3,
  /** 4 active (a seat each), 6 deactivated ones kept as history. */
  devices: 10,
  /** 8 token lots, 6 spends and their 6 allocations. */
  ledgerRows: 20,
  /** Past ones: expired or signed out. */
  sessions: 2,
  /** A storefront order (#1000 + g) granted to the account, and a card payment (inv_bench_<g>). */
  orders: 1,
  cardPayments: 1,
} as const;

/**
 * Verified customers sharing one password hash (hashing each would take minutes), each with a
 * realistic account: keys of two Reference products, a Voice AI licence past its trial paid
 * with tokens, ten devices (four active), eight token lots (some expired, some spent) and six
 * spends, two past sessions, a storefront order and a card payment. Written in SQL with
 * generate_series straight into the database before the service starts: 100,000 customers take
 * about a minute on PostgreSQL.
 */
export async function seedCustomers(database: { url?: string; dataDir?: string }, count: number): Promise<void> {
  const handle = await openDatabase(
    database.url
      ? { kind: 'postgres', url: database.url }
      : { kind: 'pglite', dataDir: path.join(database.dataDir as string, 'pgdata') },
  );
  await handle.migrate();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const { db } = handle;
  // Customer g is bench<g>@example.com; their rows are derived from g, so every scale has the same shape.
  await db.execute(sql`
    insert into users (email, password_hash, email_verified_at, created_at, updated_at,
                       address_line1, city, postal_code, country)
    select 'bench' || g || '@example.com', ${passwordHash}, now() - interval '400 days',
           now() - interval '400 days', now() - interval '30 days',
           g || ' Bench Street', 'Riga', 'LV-' || lpad((g % 10000)::text, 4, '0'), 'LV'
    from generate_series(0, ${count - 1}) g`);
  await db.execute(sql`
    create temporary table bench_users as
    select id, (regexp_replace(email, '\\D', '', 'g'))::int as g from users where email like 'bench%@example.com'`);
  // Two registered keys (24 upper-case alphanumerics), one per Reference product; the last group
  // (six characters, what support searches by) differs from key to key, as random keys' do.
  await db.execute(sql`
    insert into license_keys (key, product_code, user_id, registered_at, source)
    select 'BK' || lpad(p.n::text, 4, '0') || lpad(u.g::text, 12, '0') || upper(substr(md5(u.g || '-' || p.n), 1, 6)),
           p.code, u.id,
           now() - (p.n * 200 || ' days')::interval, 'issued'
    from bench_users u cross join (values (1, 'sid-reference'), (2, 'ref4-studio')) as p(n, code)`);
  await db.execute(sql`
    insert into licences (user_id, product_code, trial_started_at, trial_ends_at, trial_source)
    select u.id, p.code,
           case when p.code = 'voice-ai' then now() - interval '120 days' end,
           case when p.code = 'voice-ai' then now() - interval '106 days' end,
           case when p.code = 'voice-ai' then 'trial' end
    from bench_users u cross join (values ('sid-reference'), ('ref4-studio'), ('voice-ai')) as p(code)`);
  // Ten devices: per licence some active, the rest deactivated by the customer or an app. Machine
  // ids are the customer's own; the names are shared by every customer (the worst case of a search by name).
  await db.execute(sql`
    insert into devices (licence_id, user_id, machine_id, name, method, activated_at, deactivated_at, deactivation_cause, last_seen_at)
    select l.id, l.user_id, 'machine-' || u.g || '-' || d.n || '-' || l.product_code, 'Studio machine ' || d.n, 'online',
           now() - ((d.n * 37) || ' days')::interval,
           case when d.n > d.active then now() - ((d.n * 11) || ' days')::interval end,
           case when d.n > d.active then (case when d.n % 2 = 0 then 'customer' else 'app' end) end,
           -- Last seen 0 to 89 days ago: about a third of the active seats are due for the idle sweep (ADR 0052).
           now() - (((u.g * 7 + d.n) % 90) || ' days')::interval
    from licences l
    join bench_users u on u.id = l.user_id
    join (values ('sid-reference', 4, 2), ('ref4-studio', 3, 1), ('voice-ai', 3, 1)) as per(code, devices, active)
      on per.code = l.product_code
    cross join lateral (select n, per.active from generate_series(1, per.devices) n) as d`);
  // Eight lots: the expired trial and three expired purchases (spent or lapsed), two live grants
  // and two live purchases with plenty left (ConsumeTokens spends from them during the bench).
  await db.execute(sql`
    insert into token_lots (user_id, amount, remaining, cause, source_ref, purchased_at, expires_at)
    select u.id, lot.amount, lot.remaining, lot.cause, 'bench-' || u.g || '-' || lot.n,
           now() - (lot.age_days || ' days')::interval,
           now() - (lot.age_days || ' days')::interval + interval '12 months'
    from bench_users u cross join (values
      (1, 'trial', 600, 0, 500),
      (2, 'purchase', 6000, 0, 480),
      (3, 'purchase', 6000, 1200, 420),
      (4, 'purchase', 12000, 3000, 380),
      (5, 'grant', 3000, 3000, 200),
      (6, 'grant', 3000, 2500, 90),
      (7, 'purchase', 10000000, 10000000, 30),
      (8, 'purchase', 10000000, 10000000, 5)) as lot(n, cause, amount, remaining, age_days)`);
  await db.execute(sql`
    insert into token_spends (user_id, request_id, millis, tokens, balance_after, spent_at)
    select u.id, 'bench-spend-' || s.n, s.n * 30000, s.n * 300, 20000000 - s.n * 300,
           now() - ((s.n * 13) || ' days')::interval
    from bench_users u cross join generate_series(1, 6) as s(n)`);
  await db.execute(sql`
    insert into token_spend_allocations (spend_id, lot_id, user_id, tokens, spent_at)
    select s.id, l.id, s.user_id, s.tokens, s.spent_at
    from token_spends s
    join token_lots l on l.user_id = s.user_id and l.source_ref like '%-' || (2 + (substr(s.request_id, 13)::int % 3))`);
  // Past sessions: one that ran out, one ended by signing out (the sessions table is not empty).
  await db.execute(sql`
    insert into sessions (user_id, keep_me_signed_in, created_at, last_seen_at, expires_at, revoked_at, user_agent, ip)
    select u.id, s.n = 1, now() - ((s.n * 40) || ' days')::interval, now() - ((s.n * 40 - 1) || ' days')::interval,
           now() - ((s.n * 40 - 30) || ' days')::interval,
           case when s.n = 2 then now() - ((s.n * 40 - 2) || ' days')::interval end,
           'SoundID Reference/5.12 (Macintosh)', '203.0.113.' || (u.g % 250)
    from bench_users u cross join generate_series(1, 2) as s(n)`);
  // A storefront order granted to the account, and a paid card checkout (what operators search by).
  await db.execute(sql`
    insert into storefront_orders (order_id, source, name, email, user_id, status, quantity, financial_status,
                                   currency, total_price, ordered_at, received_at, fulfilled_at)
    select (5000000000000 + u.g)::text, 'shopify', '#' || (1000 + u.g), 'bench' || u.g || '@example.com', u.id,
           'granted', 1, 'paid', 'EUR', '99.00', now() - interval '60 days', now() - interval '60 days',
           now() - interval '60 days'
    from bench_users u`);
  await db.execute(sql`
    insert into checkout_sessions (invoice_tag, user_id, price_id, bundle_title, token_amount, amount_in_cents,
                                   currency, provider, provider_session_id, payment_intent_id, status, return_url,
                                   created_at, expires_at, completed_at)
    select 'inv_bench_' || u.g, u.id, 'price_6000', '6000 tokens', 6000, 1999, 'EUR', 'stripe', 'cs_bench_' || u.g,
           'pi_bench_' || u.g, 'succeeded', 'http://localhost:3000/voice-ai', now() - interval '480 days',
           now() - interval '479 days', now() - interval '480 days'
    from bench_users u`);
  await db.execute(sql`drop table bench_users`);
  await db.execute(sql`analyze`);
  await handle.close();
}

/**
 * The authenticator secret every TOTP bench customer shares (base32 of 20 bytes). Each account
 * still accepts a code once per time step (replay refused), so a run signs each in at most once.
 */
export const BENCH_TOTP_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
export const benchTotpEmail = (i: number) => `totp${i}@bench.example.com`;

/**
 * Verified customers with TOTP turned on (ADR 0037), for the TOTP sign-in figure: the shared
 * password, and BENCH_TOTP_SECRET sealed under the service's secret as the service seals it
 * (one sealed copy for all: the bench needs no distinct nonces).
 */
export async function seedTotpCustomers(
  database: { url?: string; dataDir?: string },
  count: number,
  sessionSecret: string,
): Promise<void> {
  const handle = await openDatabase(
    database.url
      ? { kind: 'postgres', url: database.url }
      : { kind: 'pglite', dataDir: path.join(database.dataDir as string, 'pgdata') },
  );
  await handle.migrate();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const sealed = totpSecretBox(sessionSecret, systemRandom).seal(BENCH_TOTP_SECRET);
  const { db } = handle;
  await db.execute(sql`
    insert into users (email, password_hash, email_verified_at, created_at, updated_at)
    select 'totp' || g || '@bench.example.com', ${passwordHash}, now() - interval '90 days',
           now() - interval '90 days', now() - interval '90 days'
    from generate_series(0, ${count - 1}) g`);
  await db.execute(sql`
    insert into totp_factors (user_id, sealed_secret, created_at, confirmed_at)
    select id, ${sealed}, now() - interval '60 days', now() - interval '60 days'
    from users where email like 'totp%@bench.example.com'`);
  await db.execute(sql`analyze`);
  await handle.close();
}
