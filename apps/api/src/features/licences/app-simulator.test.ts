import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOTP_PERIOD_SECONDS, toDotNetDate } from '@soundid/contracts';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { runSimulator, SIMULATOR_APP_VERSION } from '../../cli/app-simulator';
import { adminCall, licenceList, ownKey } from './test-helpers';

/** `npm run app` against a listening service: deeplink sign-in, then activate, check, deactivate. */
let t: TestApp;
let url: string;
const dir = mkdtempSync(path.join(tmpdir(), 'soundid-sim-'));
beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

async function app(...argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  const code = await runSimulator([...argv, '--url', url, '--state', path.join(dir, 'state.json')], {
    log: (line) => lines.push(line),
    env: {},
  });
  return { code, out: lines.join('\n') };
}

describe('app simulator', () => {
  it('finds the service on PORT when neither --url nor PUBLIC_URL is given, as the service names itself', async () => {
    await signUpVerified(t, 'sim.port@example.com');
    const lines: string[] = [];
    const code = await runSimulator(
      ['login', '--email', 'sim.port@example.com', '--password', PASSWORD, '--state', path.join(dir, 'port.json')],
      { log: (line) => lines.push(line), env: { PORT: new URL(url).port } },
    );
    expect({ code, out: lines.join('\n') }).toEqual({ code: 0, out: expect.stringMatching(/^signed in as sim.port@/) });
    expect(JSON.parse(readFileSync(path.join(dir, 'port.json'), 'utf8')).url).toBe(
      `http://localhost:${new URL(url).port}`,
    );
  });

  it('signs in through the login deeplink and activates, checks and deactivates a machine', async () => {
    const token = await signUpVerified(t, 'sim@example.com');
    await ownKey(t, token, 'sid-reference');

    expect((await app('login', '--email', 'sim@example.com', '--password', PASSWORD)).out).toMatch(
      /signed in as sim@example.com/,
    );
    const state = JSON.parse(readFileSync(path.join(dir, 'state.json'), 'utf8'));
    expect(state.token).toEqual(expect.any(String));

    const product = ['--product', 'SoundIDReference', '--machine', 'sim-machine-01'];
    expect(await app('activate', ...product, '--name', 'Sim Studio')).toEqual({
      code: 0,
      out: expect.stringContaining('1 of 3 devices activated'),
    });
    expect(await app('check', ...product)).toEqual({ code: 0, out: 'licensed (Perpetual)' });
    const listed = (await licenceList(t, token)).ReferenceProducts.Products[0].Devices;
    expect(listed.map((d: { Name: string }) => d.Name)).toEqual(['Sim Studio']);
    // It says what an app says of itself; the portal shows it with the time (ADR 0049).
    expect(listed[0]).toMatchObject({ AppVersion: SIMULATOR_APP_VERSION, Os: expect.stringMatching(/^\S/) });
    expect(listed[0].LastSeen).toBe(listed[0].TimeActivated);
    t.clock.advanceHours(2);
    await app('check', ...product, '--app-version', '5.13.0', '--os', 'macOS 14.5');
    const seen = (await licenceList(t, token)).ReferenceProducts.Products[0].Devices[0];
    expect(seen).toMatchObject({ AppVersion: '5.13.0', Os: 'macOS 14.5', LastSeen: toDotNetDate(t.clock.now()) });
    expect((await app('deactivate', ...product)).out).toMatch(/0 of 3 devices activated/);
    expect(await app('check', ...product)).toEqual({
      code: 3,
      out: 'not activated on sim-machine-01 (Perpetual; 0 of 3 devices activated): run activate',
    });
    await expect(app('deactivate', ...product)).rejects.toThrow(/DeviceNotFound/);

    expect((await app('trial', '--product', 'SoundIDVoiceAI')).out).toMatch(/Trial activated successfully/);
    const swinfo = path.join(dir, 'request.swinfo');
    await app('offline-request', '--product', 'SoundIDVoiceAI', '--machine', 'sim-offline-01', '--out', swinfo);
    const res = await t.call('/api/licenses/OfflineActivate', { swinfo: readFileSync(swinfo, 'utf8') }, token);
    const licence = path.join(dir, 'voice.swlicense');
    writeFileSync(licence, res.json().Result.Content);
    expect((await app('verify-offline', '--file', licence, '--machine', 'sim-offline-01')).out).toMatch(
      /^valid: SoundIDVoiceAI on sim-offline-01 \(Trial until /,
    );

    expect((await app('logout')).out).toBe('signed out');
    await expect(app('check', ...product)).rejects.toThrow(/Not signed in/);
  });

  it('deactivates offline: removes the licence file, writes the .swdeactivate request, and verifies the portal receipt (ADR 0053)', async () => {
    const token = await signUpVerified(t, 'sim.offline@example.com');
    await ownKey(t, token, 'sid-reference');
    const swinfo = path.join(dir, 'air-gapped.swinfo');
    const machine = ['--machine', 'sim-airgap-01'];
    await app('offline-request', '--product', 'SoundIDReference', ...machine, '--name', 'Air gap', '--out', swinfo);
    const activated = await t.call('/api/licenses/OfflineActivate', { swinfo: readFileSync(swinfo, 'utf8') }, token);
    const licence = path.join(dir, 'air-gapped.swlicense');
    writeFileSync(licence, activated.json().Result.Content);

    const request = path.join(dir, 'air-gapped.swdeactivate');
    expect(await app('offline-deactivate', '--license', licence, '--out', request)).toEqual({
      code: 0,
      out: `removed ${licence}; wrote ${request}: upload it on the offline panel to free the seat`,
    });
    expect(existsSync(licence)).toBe(false);
    const res = await t.call('/api/licenses/OfflineDeactivate', { file: readFileSync(request, 'utf8') }, token);
    expect(res.json().Result).toMatchObject({ DeviceId: activated.json().Result.DeviceId, InstancesUsed: 0 });
    const receipt = path.join(dir, res.json().Result.FileName);
    writeFileSync(receipt, res.json().Result.Content);
    expect(await app('verify-receipt', '--file', receipt, '--request-file', request)).toEqual({
      code: 0,
      out: expect.stringMatching(/^valid receipt: SoundIDReference on sim-airgap-01 deactivated at 20\d\d-/),
    });
    // Not the receipt of another request; and the licence file is gone, so no second request.
    writeFileSync(request, JSON.stringify({ ...JSON.parse(readFileSync(request, 'utf8')), proof: 'another' }));
    await expect(app('verify-receipt', '--file', receipt, '--request-file', request)).rejects.toThrow(
      /another request/,
    );
    await expect(app('offline-deactivate', '--license', licence)).rejects.toThrow(/ENOENT/);
  });

  it('signs in an account with two-step verification with --code, a current code or a recovery code, as the SPA does (ASVS 6.6.x)', async () => {
    const email = 'sim.totp@example.com';
    const token = await signUpVerified(t, email);
    const codeNow = (secret: string) => generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
    const { Secret } = (await t.call('/api/accounts/BeginTotpSetup', {}, token)).json().Result;
    const confirmed = await t.call('/api/accounts/ConfirmTotpSetup', { code: codeNow(Secret) }, token);
    const [recoveryCode] = confirmed.json().Result.RecoveryCodes as string[];
    t.clock.advanceMinutes(TOTP_PERIOD_SECONDS / 60); // the setup's code is used up
    const credentials = ['--email', email, '--password', PASSWORD];

    // No code and no terminal to ask at: says what to give, and keeps no session.
    await expect(app('login', ...credentials)).rejects.toThrow(
      'Two-step verification is on for this account: give --code <code from your authenticator app, or a recovery code>',
    );
    await expect(app('login', ...credentials, '--code', '000000')).rejects.toThrow(/^SecondFactorCodeInvalid: /);

    expect(await app('login', ...credentials, '--code', codeNow(Secret))).toEqual({
      code: 0,
      out: expect.stringMatching(/^signed in as sim.totp@example.com /),
    });
    expect((await app('open-portal')).code).toBe(0);
    expect((await app('logout')).out).toBe('signed out');

    // At a terminal without --code, the code is asked for; a recovery code works once.
    const asked: string[] = [];
    const lines: string[] = [];
    const atTerminal = (code: string) =>
      runSimulator(['login', ...credentials, '--url', url, '--state', path.join(dir, 'totp.json')], {
        log: (line) => lines.push(line),
        env: {},
        ask: async (question) => {
          asked.push(question);
          return `${code}\n`;
        },
      });
    expect(await atTerminal(recoveryCode ?? '')).toBe(0);
    expect(asked).toEqual(['Code from your authenticator app (or a recovery code): ']);
    expect(lines).toEqual([expect.stringMatching(/^signed in as sim.totp@example.com /)]);
    expect(JSON.parse(readFileSync(path.join(dir, 'totp.json'), 'utf8')).email).toBe(email);
    await expect(atTerminal(recoveryCode ?? '')).rejects.toThrow(/^SecondFactorCodeInvalid: /);
  });

  it('open-portal prints a portal link whose one-time code signs a browser in as the app’s customer (ADR 0029)', async () => {
    await signUpVerified(t, 'sim.portal@example.com');
    await app('login', '--email', 'sim.portal@example.com', '--password', PASSWORD);
    const { code, out } = await app('open-portal', '--path', '/products');
    expect(code).toBe(0);
    expect(out).toMatch(/^http:\/\/localhost:3000\/products\?token=[A-Za-z0-9_-]{43}$/);
    const exchange = () =>
      t.call('/api/accounts/ExchangeWebLoginCode', { code: new URL(out).searchParams.get('token') });
    expect((await exchange()).json()).toMatchObject({
      Success: true,
      Result: { User: { Email: 'sim.portal@example.com' } },
    });
    expect((await exchange()).json().Fault.ExceptionName).toBe('WebLoginCodeUsed');
    await expect(app('open-portal', '--path', '//evil.example')).rejects.toThrow(/RequestInvalid/);
  });

  it('spends tokens like VoiceAI does, once per request id, on a pay-as-you-go activation', async () => {
    await signUpVerified(t, 'sim.tokens@example.com');
    await adminCall(t, '/api/admin/grant-tokens', { email: 'sim.tokens@example.com', amount: 1000 });
    await app('login', '--email', 'sim.tokens@example.com', '--password', PASSWORD);
    const voice = ['--product', 'SoundIDVoiceAI', '--machine', 'sim-voice-01'];
    expect((await app('activate', ...voice)).out).toMatch(/1 of 2 devices activated/);

    expect(await app('spend', '--seconds', '12', '--request', 'take-1')).toEqual({
      code: 0,
      out: 'spent 120 tokens for 12 s (request take-1); 880 left',
    });
    expect((await app('spend', '--seconds', '12', '--request', 'take-1')).out).toMatch(/; 880 left$/);
    expect((await app('spend', '--seconds', '3')).out).toMatch(
      /^spent 70 tokens for 3 s \(request sim-.+\); 810 left$/,
    );
    expect(await app('check', ...voice)).toEqual({ code: 0, out: 'licensed (Tokens, 810 tokens)' });
    await expect(app('spend', '--seconds', '0')).rejects.toThrow(/--seconds must be a positive number/);
    await expect(app('spend', '--seconds', '100')).rejects.toThrow(/TokenBalanceInsufficient/);

    const usage = (await t.call('/api/voiceai/GetActionHistory', { page: 1 }, await signInToken())).json().Result;
    expect(usage.PageItems.map((item: { TokenAmount: number }) => item.TokenAmount)).toEqual([70, 120]);
  });
});

async function signInToken(): Promise<string> {
  const res = await t.call('/api/accounts/LoginByEmail', {
    email: 'sim.tokens@example.com',
    password: PASSWORD,
    keepMeSignedIn: false,
  });
  return res.json().Token;
}
