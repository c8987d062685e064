import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSandboxWebhookSecret, sandboxSessionIdOf } from '../../src/dev/stripe-sandbox/provider';
import { operatorKitFor, postJson, type ServiceProcess, scratchDatabase, signUpThrough, startService } from '../kit';
import { PAID_1K, paidSessionEvent } from '../payment-webhooks';

/**
 * The service killed (SIGKILL) in the middle of a payment webhook and of a device activation,
 * then restarted: no partial state, and the retried request (the same event, the same
 * activation) completes exactly once.
 *
 * How the kill lands inside the transaction, every time: the test holds a row lock on the
 * customer (`select … for update` in its own transaction). Inserting the token lot or the
 * device row needs a key-share lock on that customer (the foreign key), so the request's
 * transaction stops right there: the webhook has already claimed its event and marked the
 * checkout paid, the activation has locked the licence and counted the seats. The test sees
 * the backend waiting on the lock in pg_stat_activity, kills the service, then lets go of the
 * lock: the orphaned transaction can never be committed, as only the dead client could have
 * sent its COMMIT. No hook in the service, nothing a production build could switch on.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const runs = process.env.TEST_DB_KIND === 'postgres' && serverUrl !== undefined;
const SESSION_SECRET = 'kill-mid-transaction-session-secret-0123456789';
const ADMIN = 'kill-mid-transaction-operator-token-0123';
const PASSWORD = 'killed in the middle 1';

/** An admin operator's token on the test's database (made once, it outlives restarts). */
let issuer: Promise<string> | undefined;
const issuerToken = (base: string) => {
  issuer ??= operatorKitFor(base, ADMIN).tokenFor(['admin']);
  return issuer;
};

describe.runIf(runs)('SIGKILL in the middle of a transaction', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let db: pg.Client;
  let service: ServiceProcess | undefined;
  const start = async () => {
    service = await startService(database.url, { SESSION_SECRET, ADMIN_TOKEN: ADMIN });
    return service.url;
  };

  beforeAll(async () => {
    database = await scratchDatabase(serverUrl as string, 'soundid_midkill');
    await start();
    db = new pg.Client({ connectionString: database.url });
    await db.connect();
  }, 60_000);

  afterAll(async () => {
    await service?.stop();
    await db?.end();
    await database?.drop();
  });

  /** A second connection that holds the customer's row until released. */
  async function lockCustomer(email: string) {
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    await holder.query('begin');
    await holder.query('select id from users where email = $1 for update', [email]);
    return {
      release: async () => {
        await holder.query('rollback');
        await holder.end();
      },
    };
  }

  /** Waits until a backend of the service waits on a lock inside the given statement. */
  async function waitUntilBlockedIn(statement: RegExp): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const { rows } = await db.query(
        `select query from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and wait_event_type = 'Lock'`,
      );
      if (rows.some((row) => statement.test(row.query))) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`no request blocked in ${statement}`);
  }

  /** Kills the service while its request waits, lets go of the lock, and waits for the orphan to end. */
  async function killWhileBlocked(inFlight: Promise<unknown>, lock: { release(): Promise<void> }) {
    await service?.kill();
    await inFlight;
    await lock.release();
    for (let i = 0; i < 200; i++) {
      const { rows } = await db.query(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      if (rows[0].n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the killed service left connections behind');
  }

  it('during a payment webhook: nothing of it stays, and the redelivered event credits once', async () => {
    let base = service?.url as string;
    const email = 'webhook.killed@example.com';
    const token = await signUpThrough(base, email, PASSWORD);
    const prepared = (await (
      await postJson(
        `${base}/api/voiceai/PrepareTokenPurchaseCheckout`,
        { priceId: 'price_sandbox_tokens_1000' },
        { authtoken: token },
      )
    ).json()) as { Result: { CheckoutSession: string; InvoiceTag: string } };
    const { CheckoutSession, InvoiceTag } = prepared.Result;
    const payload = JSON.stringify(
      paidSessionEvent(
        'evt_killed_mid_credit',
        sandboxSessionIdOf(CheckoutSession) as string,
        InvoiceTag,
        new Date(),
        PAID_1K,
      ),
    );
    // Stripe signs each retry afresh; the event (and its id) stays the same.
    const deliver = (to: string) =>
      fetch(`${to}/api/webhooks/stripe`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'stripe-signature': Stripe.webhooks.generateTestHeaderString({
            payload,
            secret: deriveSandboxWebhookSecret(SESSION_SECRET),
            timestamp: Math.floor(Date.now() / 1000),
          }),
        },
        body: payload,
      });

    const lock = await lockCustomer(email);
    const inFlight = deliver(base).catch(() => undefined);
    await waitUntilBlockedIn(/insert into "token_lots"/);
    await killWhileBlocked(inFlight, lock);

    const state = async () => ({
      events: (
        await db.query('select outcome, attempts from payment_webhook_events where event_id = $1', [
          'evt_killed_mid_credit',
        ])
      ).rows,
      checkout: (await db.query('select status from checkout_sessions where invoice_tag = $1', [InvoiceTag])).rows,
      lots: (
        await db.query(
          'select l.amount, l.remaining from token_lots l join users u on u.id = l.user_id where u.email = $1',
          [email],
        )
      ).rows,
    });
    expect(await state()).toEqual({ events: [], checkout: [{ status: 'pending' }], lots: [] });

    base = await start();
    const retried = await deliver(base);
    expect(((await retried.json()) as { Result: unknown }).Result).toEqual({
      EventId: 'evt_killed_mid_credit',
      Duplicate: false,
      Outcome: 'credited',
    });
    const again = await deliver(base);
    expect(((await again.json()) as { Result: { Duplicate: boolean } }).Result.Duplicate).toBe(true);
    expect(await state()).toEqual({
      events: [{ outcome: 'credited', attempts: 1 }],
      checkout: [{ status: 'succeeded' }],
      lots: [{ amount: 1000, remaining: 1000 }],
    });
  }, 120_000);

  it('during a device activation: no device row stays, and the retried activation takes one seat', async () => {
    const base = service?.url as string;
    const email = 'activation.killed@example.com';
    const token = await signUpThrough(base, email, PASSWORD);
    const issued = (await (
      await postJson(
        `${base}/api/admin/issue-keys`,
        { product: 'sid-reference', count: 1, reason: 'kill test' },
        { authorization: `Bearer ${await issuerToken(base)}` },
      )
    ).json()) as { Result: { Keys: string[] } };
    await postJson(`${base}/api/accounts/RegisterKey`, { key: issued.Result.Keys[0] }, { authtoken: token });
    const activate = (to: string) =>
      postJson(
        `${to}/api/apps/ActivateDevice`,
        { productName: 'SoundIDReference', machineId: 'killed-machine-01', deviceName: 'Killed Mac' },
        { authtoken: token },
      );

    const lock = await lockCustomer(email);
    const inFlight = activate(base).catch(() => undefined);
    await waitUntilBlockedIn(/insert into "devices"/);
    await killWhileBlocked(inFlight, lock);
    const devicesOf = async (activeOnly: boolean) =>
      (
        await db.query(
          `select d.id, d.machine_id from devices d join users u on u.id = d.user_id
           where u.email = $1 ${activeOnly ? 'and d.deactivated_at is null' : ''}`,
          [email],
        )
      ).rows;
    expect(await devicesOf(false)).toEqual([]);

    const restarted = await start();
    const first = (await (await activate(restarted)).json()) as { Result: { DeviceId: string; InstancesUsed: number } };
    const second = (await (await activate(restarted)).json()) as {
      Result: { DeviceId: string; InstancesUsed: number };
    };
    expect(first.Result).toMatchObject({ InstancesUsed: 1, InstancesMax: 3 });
    expect(second.Result).toEqual(first.Result);
    expect(await devicesOf(true)).toEqual([{ id: first.Result.DeviceId, machine_id: 'killed-machine-01' }]);
  }, 120_000);
});

describe.skipIf(runs)('SIGKILL in the middle of a transaction', () => {
  it.skip('runs only in the PostgreSQL project (TEST_DATABASE_URL)', () => {});
});
