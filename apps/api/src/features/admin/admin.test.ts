import { execFile } from 'node:child_process';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOTP_PERIOD_SECONDS } from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../../test/accounts-flow';
import { runCli } from '../../../test/kit/cli';
import { repoRoot } from '../../../test/kit/service-process';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../../test/kit/test-app';
import { sandboxPurchase } from '../../../test/payment-webhooks';
import { createSandboxCart, payCheckout } from '../../../test/storefront';
import { storefrontOrders } from '../../db/storefront-schema';
import { activate, ownKey } from '../licences/test-helpers';

let t: TestApp;
let baseUrl: string;
let support: string;
beforeAll(async () => {
  t = await createTestApp();
  await signUpVerified(t, 'vic@example.com');
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  support = await t.operatorToken(['support']);
});
afterAll(() => t.close());

describe('operator API', () => {
  it('refuses a missing or wrong operator token', async () => {
    const none = await t.app.inject('/api/admin/user?email=vic@example.com');
    expect(none.statusCode).toBe(401);
    expect(none.json().Fault.ExceptionName).toBe('AdminTokenInvalid');
    const wrong = await t.app.inject({
      url: '/api/admin/user?email=vic@example.com',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('looks up a customer', async () => {
    const res = await t.app.inject({
      url: '/api/admin/user?email=VIC@example.com',
      headers: { authorization: `Bearer ${support}` },
    });
    expect(res.json().Result).toMatchObject({ Email: 'vic@example.com', EmailVerified: true, ActiveSessions: 1 });
    const missing = await t.app.inject({
      url: '/api/admin/user?email=nobody@example.com',
      headers: { authorization: `Bearer ${support}` },
    });
    expect(missing.json().Fault.ExceptionName).toBe('UserNotFound');
  });
});

// Each test runs the CLI a few times, each run a Node process (the kit's bundle of the CLI).
describe('npm run admin', { timeout: 120_000 }, () => {
  /** Each CLI run gets a config folder of its own: the kept tokens of `login` go there. */
  const configHome = mkdtempSync(path.join(tmpdir(), 'soundid-cli-config-'));
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli('admin', args, {
      cwd: process.cwd(),
      env: { ...process.env, ADMIN_TOKEN: '', SOUNDID_OPERATOR_TOKEN: '', XDG_CONFIG_HOME: configHome, ...env },
    });

  it("starts as `npm run admin` starts it, through tsx (the other tests run the kit's bundle)", async () => {
    const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'admin', '--', '--help'], {
      cwd: repoRoot,
      timeout: 60_000,
    });
    expect(stdout).toMatch(/^Usage: npm run admin -- <command> \[options\]/);
  });

  it('prints a customer', async () => {
    // A customer of its own: other tests grant vic tokens and sign vic in.
    await signUpVerified(t, 'una@example.com');
    const { stdout } = await cli(['user', '--email', 'una@example.com', '--url', baseUrl, '--token', support]);
    expect(stdout).toContain('Email: una@example.com');
    expect(stdout).toContain('EmailVerified: true');
    expect(stdout).toContain('SignInLocked: false');
    expect(stdout).toContain('Devices: 0 active');
    // The customer page's sections, briefly.
    expect(stdout).toContain('SecondFactor: TOTP off, 0 recovery codes left, 0 passkey(s)');
    expect(stdout).toContain('Sessions: 1 live');
    expect(stdout).toContain('Licences: 0');
    expect(stdout).toContain('Tokens: balance 0');
    expect(stdout).toMatch(/^Mails: 1\n {2}\S+ {2}sent {2}Verify your email address for My SoundID$/m);
    expect(stdout).not.toContain('"SecondFactor"');
  });

  it('finds customers, by every kind or one', async () => {
    const as = ['--url', baseUrl, '--token', support];
    const { stdout } = await cli(['search', 'VIC@EX', ...as]);
    expect(stdout).toMatch(/^vic@example\.com {2}\S+ {2}verified {2}since \S+ {2}\(email: vic@example\.com\)$/m);
    expect((await cli(['search', 'vic@example.com', '--by', 'order', ...as])).stdout).toBe('no customer found\n');
    await expect(cli(['search', 'vic', '--by', 'phone', ...as])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--by must be one of email, key, device, order, invoice'),
    });
  });

  it("does support's tickets with a reason", async () => {
    const args = ['--email', 'vic@example.com', '--url', baseUrl, '--token', support];
    expect((await cli(['unlock-sign-in', ...args, '--reason', 'ticket 7'])).stdout).toBe('was not locked\n');
    await expect(cli(['unlock-sign-in', ...args])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reason is required'),
    });
  });

  it("undoes a customer's lost report with a reason: the machine may activate again (ADR 0050)", async () => {
    const token = await signUpVerified(t, 'cli-lost@example.com');
    await ownKey(t, token, 'sid-reference');
    const deviceId = (await activate(t, token, 'SoundIDReference', 'cli-lost-1', 'Tour laptop')).json().Result.DeviceId;
    const reported = await t.call('/api/licenses/ReportDeviceLost', { deviceId, reason: 'lost' }, token);
    expect(reported.statusCode).toBe(200);
    const args = ['--id', deviceId, '--url', baseUrl, '--token', support];
    await expect(cli(['undo-lost-report', ...args])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reason is required'),
    });
    expect((await cli(['undo-lost-report', ...args, '--reason', 'found, ticket L-3'])).stdout).toBe(
      '"Tour laptop" (sid-reference) of cli-lost@example.com may use its licence again; it takes a seat when activated\n',
    );
    expect((await activate(t, token, 'SoundIDReference', 'cli-lost-1')).statusCode).toBe(200);
    await expect(cli(['undo-lost-report', ...args, '--reason', 'found, ticket L-3'])).rejects.toMatchObject({
      stderr: expect.stringContaining('DeviceNotFound'),
    });
  });

  it('lists the job queue and runs the idle-seat sweep now, audited, once while one is queued (ADR 0051)', async () => {
    // The app of this file queues but does not work: the queued job stays to be seen.
    await t.services.jobs.start({ work: false });
    const admin = await t.operatorToken(['admin']);
    const args = ['--url', baseUrl, '--token', admin];
    expect((await cli(['jobs', ...args])).stdout).toMatch(
      /^release-idle-seats {2}schedule "17 \* \* \* \*" \(UTC\) {2}queued 0, running 0, failed 0, done 0$/m,
    );
    await expect(cli(['run-job', 'release-idle-seats', ...args])).rejects.toMatchObject({
      stderr: expect.stringContaining('--reason is required'),
    });
    expect((await cli(['run-job', 'release-idle-seats', ...args, '--reason', 'ticket J-1'])).stdout).toMatch(
      /^queued release-idle-seats \(job [0-9a-f-]{36}\)/,
    );
    expect((await cli(['run-job', 'release-idle-seats', ...args, '--reason', 'ticket J-1'])).stdout).toBe(
      'release-idle-seats is already queued or running: nothing added\n',
    );
    expect((await cli(['jobs', ...args])).stdout).toMatch(/^release-idle-seats .* queued 1, running 0/m);
    await expect(cli(['run-job', 'no-such-job', ...args, '--reason', 'x'])).rejects.toMatchObject({
      stderr: expect.stringContaining('RequestInvalid'),
    });
    // Support may not (deny by default, ADR 0044); every run is in the audit trail.
    await expect(
      cli(['run-job', 'release-idle-seats', '--url', baseUrl, '--token', support, '--reason', 'x']),
    ).rejects.toMatchObject({
      stderr: expect.stringContaining('OperatorForbidden'),
    });
    const audit = await t.app.inject({
      method: 'POST',
      url: '/api/admin/SearchAudit',
      headers: { authorization: `Bearer ${admin}` },
      payload: { action: 'AdminRunJob' },
    });
    expect(audit.statusCode).toBe(200);
    expect(JSON.stringify(audit.json())).toContain('ticket J-1');
    await t.services.jobs.drain('release-idle-seats');
  });

  it('finds the service on PORT and the token in SOUNDID_OPERATOR_TOKEN', async () => {
    const { stdout } = await cli(['products'], {
      SOUNDID_OPERATOR_TOKEN: support,
      PUBLIC_URL: '',
      PORT: new URL(baseUrl).port,
    });
    expect(stdout).toMatch(/^sid-reference\s+SoundIDReference\s/m);
  });

  it('prints the service metrics for an admin', async () => {
    const admin = await t.operatorToken(['admin']);
    const { stdout } = await cli(['metrics', '--url', baseUrl, '--token', admin]);
    expect(JSON.parse(stdout)).toMatchObject({
      HeapUsedBytes: expect.any(Number),
      Database: { Connections: { total: expect.any(Number) } },
    });
    await expect(cli(['metrics', '--url', baseUrl, '--token', support])).rejects.toMatchObject({
      stderr: expect.stringContaining('OperatorForbidden'),
    });
  });

  it('grants tokens once per reference, with a reason', async () => {
    const finance = await t.operatorToken(['finance']);
    const args = ['--email', 'vic@example.com', '--amount', '250', '--reference', 'T-1', '--reason', 'goodwill T-1'];
    const common = ['--url', baseUrl, '--token', finance];
    expect((await cli(['grant-tokens', ...args, ...common])).stdout).toBe('granted 250 tokens\nbalance 250\n');
    expect((await cli(['grant-tokens', ...args, ...common])).stdout).toBe(
      'already granted for this reference\nbalance 250\n',
    );
    await expect(
      cli(['grant-tokens', '--email', 'vic@example.com', '--amount', '-5', ...common]),
    ).rejects.toMatchObject({ code: 2 });
    await expect(cli(['grant-tokens', '--email', 'vic@example.com', '--amount', '5', ...common])).rejects.toMatchObject(
      { code: 2, stderr: expect.stringContaining('--reason is required') },
    );
  });

  it('grants tokens that expire sooner with --expires-in-days; the customer sees them expiring (ADR 0056)', async () => {
    const finance = await t.operatorToken(['finance']);
    const token = await signUpVerified(t, 'soon@example.com');
    const common = ['--url', baseUrl, '--token', finance];
    const grant = ['grant-tokens', '--email', 'soon@example.com', '--amount', '1200', '--reason', 'promo P-7'];
    expect((await cli([...grant, '--expires-in-days', '10', ...common])).stdout).toBe(
      'granted 1200 tokens\nbalance 1200\n',
    );
    const products = (await t.call('/api/voiceai/GetProducts', {}, token)).json().Result;
    expect(products.ExpiringTokens).toEqual([
      { Tokens: 1200, ExpiryDate: t.clock.now().getTime() + 10 * 24 * 3600 * 1000 },
    ]);
    // Beyond a purchase's twelve months, or none at all: refused, nothing credited.
    for (const days of ['366', '0']) {
      await expect(cli([...grant, '--expires-in-days', days, ...common])).rejects.toMatchObject({
        code: expect.any(Number),
      });
    }
    expect((await t.call('/api/voiceai/GetProducts', {}, token)).json().Result.ExpiringTokens).toHaveLength(1);
  });

  it("does support's allowance reset and finance's withdrawals and refunds, each with a reason", async () => {
    const finance = await t.operatorToken(['finance']);
    const as = (token: string) => ['--url', baseUrl, '--token', token];
    const token = await signUpVerified(t, 'cli-customer@example.com');

    // Two counted deactivations, then support gives them back.
    const key = await ownKey(t, token, 'sid-reference');
    for (const machineId of ['cli-a', 'cli-b']) {
      await activate(t, token, 'SoundIDReference', machineId);
      await t.call('/api/apps/DeactivateDevice', { productName: 'SoundIDReference', machineId }, token);
    }
    const reset = await cli(['reset-deactivations', '--key', key, '--reason', 'ticket S-12', ...as(support)]);
    expect(reset.stdout).toBe(
      `forgave 2 deactivation(s) of the sid-reference key …${key.slice(-6)}: its whole allowance is back\n`,
    );
    await expect(cli(['reset-deactivations', '--key', key, ...as(support)])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reason is required'),
    });

    // Tokens bought by card: a partial refund, then the rest; then 100 of the tokens left of a grant withdrawn.
    const { invoiceTag } = await sandboxPurchase(t, token);
    const refund = ['refund-payment', '--invoice-tag', invoiceTag, '--reason', 'ticket F-12', ...as(finance)];
    expect((await cli([...refund, '--amount-cents', '300', '--reference', 'F-12a'])).stdout).toBe(
      `${invoiceTag}: 300 of 999 cents refunded in all\n`,
    );
    await expect(cli(refund)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reference is required'),
    });
    expect((await cli([...refund, '--reference', 'F-12b'])).stdout).toBe(
      `${invoiceTag}: 999 of 999 cents refunded in all\n`,
    );
    await expect(cli([...refund, '--reference', 'F-12c'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('PaymentRefundInvalid'),
    });

    await t.app.inject({
      method: 'POST',
      url: '/api/admin/grant-tokens',
      payload: { email: 'cli-customer@example.com', amount: 250, reason: 'goodwill' },
      headers: { authorization: `Bearer ${finance}` },
    });
    const withdraw = ['withdraw-tokens', '--email', 'cli-customer@example.com', '--reason', 'chargeback F-13'];
    const once = [...withdraw, '--amount', '100', '--reference', 'F-13', ...as(finance)];
    expect((await cli(once)).stdout).toBe('withdrew 100 tokens\nbalance 150\n');
    expect((await cli(once)).stdout).toBe('already withdrawn for this reference\nbalance 150\n');
    await expect(cli([...withdraw, '--amount', '10', ...as(finance)])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reference is required'),
    });
    await expect(cli([...withdraw, '--amount', '151', '--reference', 'F-14', ...as(finance)])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('TokenWithdrawalExceedsBalance'),
    });
    await expect(cli([...withdraw, '--amount', '-5', '--reference', 'F-15', ...as(finance)])).rejects.toMatchObject({
      code: 2,
    });
  });

  it('refunds a storefront order through the sandbox store, once per reference (ADR 0059)', async () => {
    const finance = await t.operatorToken(['finance']);
    await signUpVerified(t, 'order-refund@example.com');
    const { checkoutUrl } = await createSandboxCart(t.app, 'order-refund@example.com', 2);
    await payCheckout(t.app, checkoutUrl, 'order-refund@example.com');
    const [order] = await t.database.db
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.email, 'order-refund@example.com'));
    const name = order?.name ?? '';
    const refund = ['refund-order', '--order', name, '--reason', 'ticket F-40', '--url', baseUrl, '--token', finance];
    const one = [...refund, '--quantity', '1', '--reference', 'F-40a'];
    const printed = `${name} (order ${order?.orderId}): 1 of 2 licence(s) refunded in all; granted\n`;
    expect((await cli(one)).stdout).toBe(printed);
    expect((await cli(one)).stdout).toBe(printed);
    expect((await cli([...refund, '--reference', 'F-40b'])).stdout).toContain(
      '2 of 2 licence(s) refunded in all; refunded',
    );
    await expect(cli([...refund, '--reference', 'F-40c'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('StorefrontOrderRefunded'),
    });
    await expect(cli(refund)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--reference is required'),
    });
  });

  it('imports serials from a CSV file, listing every bad row of a bad one', async () => {
    const admin = await t.operatorToken(['admin']);
    const dir = mkdtempSync(path.join(tmpdir(), 'soundid-cli-csv-'));
    const bad = path.join(dir, 'bad.csv');
    writeFileSync(bad, 'serial\nCLISERIAL1\nSHORT\nclis erial2\n');
    const good = path.join(dir, 'good.csv');
    writeFileSync(good, 'serial,batch\nCLISERIAL1,9\nCLISERIAL2,9\n');
    const args = (file: string) => [
      'import-serials',
      '--file',
      file,
      '--reason',
      'batch 9',
      '--url',
      baseUrl,
      '--token',
      admin,
    ];
    const refused = await cli(args(bad)).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr.split('\n').slice(0, 3)).toEqual([
      expect.stringContaining('CsvRowsInvalid'),
      '  Row 3: "SHORT": Serial number must be at least 9 characters.',
      '  Row 4: "clis erial2": a serial has no spaces or line breaks',
    ]);
    expect((await cli(args(good))).stdout).toBe('2 rows: added 2, already present 0\n');
    await expect(cli(args(path.join(dir, 'missing.csv')))).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('is not a file'),
    });
  });

  it('prints help, and fails clearly on a bad token, no sign-in or a missing option', async () => {
    expect((await cli(['--help'])).stdout).toContain('user --email <address>');
    await expect(cli(['user', '--email', 'vic@example.com', '--url', baseUrl, '--token', 'bad'])).rejects.toMatchObject(
      {
        stderr: expect.stringContaining('AdminTokenInvalid'),
      },
    );
    await expect(cli(['user', '--email', 'vic@example.com', '--url', baseUrl])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('npm run admin -- login'),
    });
    await expect(cli(['user', '--url', baseUrl, '--token', support])).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--email is required'),
    });
  });

  it('bootstraps the first admin, who activates, signs in, keeps a token, acts and proves the audit trail', async () => {
    // A service of its own: the bootstrap works once per database.
    const fresh = await createTestApp();
    const url = await fresh.app.listen({ port: 0, host: '127.0.0.1' });
    const home = mkdtempSync(path.join(tmpdir(), 'soundid-cli-config-'));
    const as = (args: string[], env: Record<string, string> = {}) =>
      cli([...args, '--url', url], { XDG_CONFIG_HOME: home, ...env });
    const codeAt = (secret: string, steps: number) =>
      generateSync({ secret, epoch: Math.floor(fresh.clock.now().getTime() / 1000) + steps * TOTP_PERIOD_SECONDS });
    try {
      const boot = await as(['bootstrap', '--email', 'Boss@Example.com', '--name', 'Boss'], { ADMIN_TOKEN });
      const link = boot.stdout.match(/http\S+\/console\/invitation\/\S+/)?.[0] as string;
      expect(link).toBeTruthy();
      await expect(
        as(['bootstrap', '--email', 'x@example.com', '--name', 'X'], { ADMIN_TOKEN: 'wrong' }),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('AdminTokenInvalid'),
      });

      const accepted = await as(['accept-invitation', '--link', link], {
        OPERATOR_PASSWORD: 'a long operator password',
      });
      const secret = accepted.stdout.match(/secret: (\S+)/)?.[1] as string;
      expect(accepted.stdout).toContain('confirm-invitation');
      await as(['confirm-invitation', '--link', link, '--code', codeAt(secret, 0)]);

      const login = await as(['login', '--email', 'boss@example.com', '--code', codeAt(secret, 1)], {
        OPERATOR_PASSWORD: 'a long operator password',
      });
      expect(login.stdout).toContain('signed in as boss@example.com (admin)');
      const kept = path.join(home, 'my-soundid', 'operator-tokens.json');
      expect(statSync(kept).mode & 0o777).toBe(0o600);

      expect((await as(['whoami'])).stdout).toContain('boss@example.com (admin) via token, scope write');
      const keys = await as([
        'issue-keys',
        '--product',
        'sid-reference',
        '--count',
        '2',
        '--reason',
        'reseller order 42',
      ]);
      expect(keys.stdout.trim().split('\n')).toHaveLength(2);
      const audit = await as(['audit', '--action', 'AdminIssueKeys']);
      expect(audit.stdout).toMatch(/boss@example\.com AdminIssueKeys done product:sid-reference — reseller order 42/);
      expect((await as(['verify-audit'])).stdout).toMatch(/audit trail intact: \d+ entries/);

      // The bootstrap token is closed now.
      await expect(
        as(['bootstrap', '--email', 'late@example.com', '--name', 'Late'], { ADMIN_TOKEN }),
      ).rejects.toMatchObject({
        stderr: expect.stringContaining('BootstrapClosed'),
      });

      await as(['logout']);
      await expect(as(['whoami'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('login') });
    } finally {
      await fresh.close();
    }
  });
});
