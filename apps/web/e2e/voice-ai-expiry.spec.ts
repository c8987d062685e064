import { formatExpiryDay } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminQuery,
  operatorKitFor,
  postgresAvailable,
  type ServiceProcess,
  scratchDatabase,
  startProcess,
  TEST_SERVICE_ENV,
} from '../../api/test/kit';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { E2E_ADMIN_TOKEN } from './api-server';
import { useBrowser } from './browser';

/**
 * Tokens that expire soon (ADR 0056) on the buy page and on Licenses & Devices. A lot expires 12
 * months after its purchase, so this spec runs its own service on a PostgreSQL scratch database
 * (TEST_DATABASE_URL, else the local server) where it can date a lot back; without a reachable
 * PostgreSQL it is skipped, and says so.
 */
const SERVER_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const available = await postgresAvailable(SERVER_URL);
if (!available) console.warn(`voice-ai-expiry.spec: no PostgreSQL at ${SERVER_URL}, skipped`);

describe.skipIf(!available)('voice AI tokens expiring soon', () => {
  const browser = useBrowser();
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let service: ServiceProcess;
  beforeAll(async () => {
    database = await scratchDatabase(SERVER_URL, 'soundid_e2e_expiry');
    service = await startProcess({
      hostname: 'localhost',
      env: { NODE_ENV: 'development', ADMIN_TOKEN: E2E_ADMIN_TOKEN, DATABASE_URL: database.url, ...TEST_SERVICE_ENV },
      timeoutMs: 120_000,
    });
  }, 180_000);
  afterAll(async () => {
    await service?.stop();
    await database?.drop();
  });

  it('shows "1,200 tokens expire on <day>" on the buy page and in the Voice AI section', async () => {
    const base = service.url;
    const account = await createVerifiedAccount(base, 'expiring');
    const finance = await operatorKitFor(base, E2E_ADMIN_TOKEN).tokenFor(['finance']);
    for (const [amount, reference] of [
      [1200, 'e2e-expiring'],
      [3000, 'e2e-fresh'],
    ] as const) {
      const grant = await fetch(`${base}/api/admin/grant-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${finance}` },
        body: JSON.stringify({ email: account.email, amount, reference, reason: 'expiry spec' }),
      });
      expect(grant.ok).toBe(true);
    }
    // The first lot was bought 12 months less 10 days ago: it expires in 10 days.
    const expiresAt = new Date(Date.now() + 10 * 86_400_000);
    const bought = new Date(expiresAt);
    bought.setUTCMonth(bought.getUTCMonth() - 12);
    await adminQuery(
      database.url,
      `update token_lots set purchased_at = '${bought.toISOString()}', expires_at = '${expiresAt.toISOString()}'
       where source_ref = 'grant:e2e-expiring'`,
    );
    const line = `1,200 tokens expire on ${formatExpiryDay(expiresAt.getTime())}`;

    const page = await browser.newPage();
    await signInByCookie(page, base, account, `${base}/products/voice-ai`);
    const expiring = page.getByRole('list', { name: 'Tokens expiring soon' });
    await expiring.getByText(line).waitFor();
    expect(await expiring.getByRole('listitem').allTextContents()).toEqual([line]);
    await page.getByText('Your tokens: 4,200 (about 7 minutes of processing).', { exact: true }).waitFor();

    await page.goto(`${base}/products`);
    const voice = page.getByRole('region', { name: 'SoundID VoiceAI' });
    await voice.getByRole('list', { name: 'Tokens expiring soon' }).getByText(line).waitFor();
  });
});
