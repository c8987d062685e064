import { createHash, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, type as osType, platform, release } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { type CallBody, type CallBodyName, type CallName, type CallResult, callRoutes } from '@soundid/contracts';
import { servicePublicUrl } from '../config';
import {
  verifyDeactivationReceipt,
  verifyOfflineLicense,
  writeDeactivationRequest,
} from '../features/licences/offline';

/**
 * A desktop app in a terminal (`npm run app -- <command>`), for demos and tests: it signs in
 * the way SoundID Reference and VoiceAI do (a login deeplink exchanged for an app session),
 * activates, checks and deactivates a machine and spends voice AI tokens through /api/apps/*.
 */
/** The version the simulator reports as the app's (docs/decisions/0049-devices-seen.md). */
export const SIMULATOR_APP_VERSION = '1.0.0-simulator';

/** This computer's OS as an app would name it: "macOS 14", "Windows 10", "Linux 6.1". */
function thisOs(): string {
  const [major = '', minor = ''] = release().split(/[.-]/);
  const name = { darwin: 'macOS', win32: 'Windows' }[platform() as string] ?? osType();
  // Darwin 23 is macOS 14: the kernel's major is the marketing version + 9.
  if (name === 'macOS') return `macOS ${Number(major) - 9}`;
  return `${name} ${major}${minor ? `.${minor}` : ''}`.replace(/[^\p{L}\p{N} .,()_+/-]/gu, '');
}

const HELP = `Usage: npm run app -- <command> [options]

Commands:
  login --email <address> --password <password> [--code <code>]
                 Signs in like the portal, asks for the app login deeplink, exchanges its
                 one-time token at /api/apps/ExchangeLoginToken and keeps the app's session.
                 With two-step verification on, --code is the code from the authenticator
                 app or a recovery code; without it, a terminal asks for it
  activate --product <ProductName> [--machine <id>] [--name <device name>]
  check --product <ProductName> [--machine <id>]
                 Both also say the app's version and OS (--app-version, --os), which the
                 portal's devices panel shows with the time the machine was last seen
  deactivate --product <ProductName> [--machine <id>]
  trial --product <ProductName|code>
                 Starts the product's free trial (what the app does on a starttrial deeplink)
  spend --seconds <n> [--request <id>]
                 Bills n seconds of voice processing in tokens (10 a second, minimum 7 seconds);
                 the same --request id again spends nothing more (default: a new id)
  offline-request --product <ProductName> [--machine <id>] [--name <device name>] [--out <file>]
                 Writes an .swinfo request file for the portal's offline activation panel
  verify-offline --file <licence file> [--machine <id>]
                 Verifies a licence file with the service's published Ed25519 public key
  offline-deactivate --license <licence file> [--out <file>]
                 Deactivates offline: removes the licence file and writes an .swdeactivate
                 request, proved with the licence file's removal secret, for the portal's
                 offline panel (needs no service)
  verify-receipt --file <receipt> [--request-file <.swdeactivate file>]
                 Verifies the portal's deactivation receipt with the published public key,
                 and that it answers the request
  open-portal [--path <page>]
                 Prints a link that opens My SoundID in the browser signed in as the app's
                 customer (a one-time code valid for 2 minutes; default page /)
  logout         Ends the app's session and forgets it

Options:
  --url <url>    The service (default: PUBLIC_URL, else http://localhost:$PORT, PORT 3000)
  --state <file> Where the app session is kept (default: DATA_DIR/app-simulator.json)
  --app-version <v>  The app's version it reports (default ${SIMULATOR_APP_VERSION})
  --os <name>    The OS it reports (default this computer's, e.g. "Linux 6.1")
  --help         Show this help

The machine id defaults to one derived from this computer's host name; the device name to the host name.
`;

const OPTIONS = [
  'url',
  'state',
  'email',
  'password',
  'code',
  'product',
  'machine',
  'name',
  'out',
  'file',
  'license',
  'seconds',
  'request',
  'request-file',
  'path',
  'app-version',
  'os',
] as const;
type Options = Partial<Record<(typeof OPTIONS)[number], string>>;

interface State {
  url: string;
  token: string;
  email: string;
}

export interface SimulatorIo {
  log(line: string): void;
  env: NodeJS.ProcessEnv;
  /** Asks a person at a terminal and answers what they typed; absent when stdin is not a TTY. */
  ask?(question: string): Promise<string>;
}

class UsageError extends Error {}

class ApiError extends Error {
  constructor(
    readonly faultName: string,
    message: string,
    readonly variables: Record<string, string> = {},
  ) {
    super(`${faultName}: ${message}`);
  }
}

function required(options: Options, name: keyof Options): string {
  const value = options[name];
  if (!value) throw new UsageError(`--${name} is required`);
  return value;
}

function defaultMachineId(): string {
  return `sim-${createHash('sha256').update(hostname()).digest('hex').slice(0, 16)}`;
}

/**
 * One call by its name (packages/contracts' callRoutes): the result's type follows from the name
 * (docs/api.md, Typed results). An action (InvokeAction) goes to the URL its button names.
 */
async function call<N extends CallName>(
  baseUrl: string,
  name: N,
  body?: N extends CallBodyName ? CallBody<N> : undefined,
  token?: string,
  actionPath?: string,
): Promise<{ Token?: string; Result: CallResult<N> }> {
  const { method, path: routePath } = callRoutes[name];
  const apiPath = actionPath ?? routePath;
  const res = await fetch(`${baseUrl}${apiPath}`, {
    method,
    headers: {
      software: 'SoundID App Simulator',
      // How its session reads in the customer's list of active sessions (Profile).
      'user-agent': 'SoundID App Simulator',
      ...(token ? { authtoken: token } : {}),
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    ...(method === 'GET' ? {} : { body: JSON.stringify(body ?? {}) }),
  });
  const envelope = (await res.json()) as {
    Success: boolean;
    Token?: string;
    Result: CallResult<N>;
    Fault?: { ExceptionName: string; ExceptionUserText: string; ExceptionVariables?: { Key: string; Value: string }[] };
  };
  if (!envelope.Success) {
    const vars = (envelope.Fault?.ExceptionVariables ?? []).map((v) => `${v.Key}=${v.Value}`).join(', ');
    throw new ApiError(
      envelope.Fault?.ExceptionName ?? 'Unknown',
      `${envelope.Fault?.ExceptionUserText ?? res.statusText}${vars ? ` (${vars})` : ''}`,
      Object.fromEntries((envelope.Fault?.ExceptionVariables ?? []).map((v) => [v.Key, v.Value])),
    );
  }
  return envelope;
}

/**
 * The portal sign-in the app starts from: LoginByEmail, and for an account with two-step
 * verification (ADR 0037) the second step as the SPA takes it, LoginSecondFactor with the
 * answer's challenge and the code (--code, else asked at a terminal). Answers the session token.
 */
async function portalSignIn(baseUrl: string, options: Options, io: SimulatorIo): Promise<string | undefined> {
  const credentials = {
    email: required(options, 'email'),
    password: required(options, 'password'),
    keepMeSignedIn: false,
  };
  try {
    return (await call(baseUrl, 'LoginByEmail', credentials)).Token;
  } catch (error) {
    if (!(error instanceof ApiError && error.faultName === 'SecondFactorRequired')) throw error;
    const code = options.code ?? (await io.ask?.('Code from your authenticator app (or a recovery code): '))?.trim();
    if (!code) {
      throw new UsageError(
        'Two-step verification is on for this account: give --code <code from your authenticator app, or a recovery code>',
      );
    }
    const challenge = error.variables.Challenge ?? '';
    return (await call(baseUrl, 'LoginSecondFactor', { challenge, code })).Token;
  }
}

/** Runs one command; returns the process exit code. */
export async function runSimulator(argv: string[], io: SimulatorIo): Promise<number> {
  const command = argv[0]?.startsWith('-') ? undefined : argv[0];
  if (!command || argv.includes('--help')) {
    io.log(HELP);
    return command || argv.includes('--help') ? 0 : 1;
  }
  let options: Options;
  try {
    options = parseArgs({
      args: argv.slice(1),
      strict: true,
      options: Object.fromEntries(OPTIONS.map((o) => [o, { type: 'string' as const }])),
    }).values as Options;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const stateFile = path.resolve(options.state ?? path.join(io.env.DATA_DIR ?? './data', 'app-simulator.json'));
  const readState = (): State => {
    if (!existsSync(stateFile)) throw new UsageError(`Not signed in: run npm run app -- login first (${stateFile})`);
    return JSON.parse(readFileSync(stateFile, 'utf8')) as State;
  };
  const baseUrl = options.url ? options.url.replace(/\/$/, '') : servicePublicUrl(io.env);
  const machineId = options.machine ?? defaultMachineId();
  const deviceName = options.name ?? hostname();
  const appSelf = { appVersion: options['app-version'] ?? SIMULATOR_APP_VERSION, os: options.os ?? thisOs() };

  switch (command) {
    case 'login': {
      const portalToken = await portalSignIn(baseUrl, options, io);
      if (!portalToken) throw new Error('The sign-in answered no Token');
      const deeplink = (await call(baseUrl, 'GetAppLoginDeeplink', {}, portalToken)).Result;
      const oneTime = new URL(deeplink.AppLoginDeeplink).searchParams.get('token');
      if (!oneTime) throw new Error(`No token in the deeplink ${deeplink.AppLoginDeeplink}`);
      const app = await call(baseUrl, 'ExchangeLoginToken', { token: oneTime });
      // The browser-side session was only a means to the deeplink.
      await call(baseUrl, 'Logout', {}, portalToken);
      const user = app.Result.User;
      if (!app.Token) throw new Error('ExchangeLoginToken answered no Token');
      mkdirSync(path.dirname(stateFile), { recursive: true });
      writeFileSync(stateFile, JSON.stringify({ url: baseUrl, token: app.Token, email: user.Email } satisfies State), {
        mode: 0o600,
      });
      chmodSync(stateFile, 0o600);
      io.log(`signed in as ${user.Email} (app session kept in ${stateFile})`);
      return 0;
    }
    case 'activate': {
      const state = readState();
      const result = (
        await call(
          options.url ? baseUrl : state.url,
          'ActivateDevice',
          { productName: required(options, 'product'), machineId, deviceName, ...appSelf },
          state.token,
        )
      ).Result;
      io.log(`activated ${machineId} as "${deviceName}" (device ${result.DeviceId})`);
      io.log(`${result.InstancesUsed} of ${result.InstancesMax} devices activated`);
      return 0;
    }
    case 'check': {
      const state = readState();
      const result = (
        await call(
          options.url ? baseUrl : state.url,
          'CheckLicense',
          { productName: required(options, 'product'), machineId, ...appSelf },
          state.token,
        )
      ).Result;
      const ends = result.TrialEndsAt
        ? ` until ${new Date(Number(/\d+/.exec(result.TrialEndsAt)?.[0])).toISOString()}`
        : '';
      const tokens = result.LicenseKind === 'Tokens' ? `, ${result.TokenBalance} tokens` : '';
      const kind = `${result.LicenseKind}${ends}${tokens}`;
      // A licence in force that this machine holds no seat of: activating is what is missing.
      const notHere = !result.Licensed && result.DeviceId === null && result.InstancesMax > 0;
      io.log(
        result.Licensed
          ? `licensed (${kind})`
          : notHere
            ? `not activated on ${machineId} (${kind}; ${result.InstancesUsed} of ${result.InstancesMax} devices activated): run activate`
            : `not licensed (${kind})`,
      );
      return result.Licensed ? 0 : 3;
    }
    case 'deactivate': {
      const state = readState();
      const result = (
        await call(
          options.url ? baseUrl : state.url,
          'DeactivateDevice',
          { productName: required(options, 'product'), machineId },
          state.token,
        )
      ).Result;
      io.log(`deactivated ${machineId}; ${result.InstancesUsed} of ${result.InstancesMax} devices activated`);
      return 0;
    }
    case 'trial': {
      const state = readState();
      const product = encodeURIComponent(required(options, 'product'));
      const result = (
        await call(
          options.url ? baseUrl : state.url,
          'InvokeAction',
          undefined,
          state.token,
          `/api/actions/trials/${product}/starttrial`,
        )
      ).Result;
      io.log(`${result.Message} (ends ${new Date(Number(/\d+/.exec(result.TrialEndsAt ?? '')?.[0])).toISOString()})`);
      return 0;
    }
    case 'spend': {
      const state = readState();
      const seconds = Number(required(options, 'seconds'));
      if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError('--seconds must be a positive number');
      const requestId = options.request ?? `sim-${randomBytes(9).toString('base64url')}`;
      const result = (
        await call(options.url ? baseUrl : state.url, 'ConsumeTokens', { seconds, requestId }, state.token)
      ).Result;
      io.log(`spent ${result.TokensSpent} tokens for ${seconds} s (request ${requestId}); ${result.TokenBalance} left`);
      return 0;
    }
    case 'offline-request': {
      const productName = required(options, 'product');
      const swinfo = {
        format: 'soundid-swinfo',
        version: 1,
        productName,
        machineId,
        deviceName,
        nonce: randomBytes(18).toString('base64url'),
        ...appSelf,
        requestedAt: new Date().toISOString(),
      };
      const out = path.resolve(options.out ?? `${productName}-${machineId}.swinfo`);
      writeFileSync(out, `${JSON.stringify(swinfo, null, 2)}\n`);
      io.log(`wrote ${out}: upload it on the offline activation panel`);
      return 0;
    }
    case 'verify-offline': {
      const file = readFileSync(required(options, 'file'), 'utf8');
      const key = (await call(baseUrl, 'GetOfflinePublicKey')).Result;
      const payload = verifyOfflineLicense(file, key.PublicKeyPem, options.machine);
      io.log(
        `valid: ${payload.productName} on ${payload.machineId} (${payload.licenseKind}${payload.expiresAt ? ` until ${payload.expiresAt}` : ''})`,
      );
      return 0;
    }
    case 'offline-deactivate': {
      const licenceFile = path.resolve(required(options, 'license'));
      const request = writeDeactivationRequest(readFileSync(licenceFile, 'utf8'), new Date());
      const { productName, machineId: machine } = JSON.parse(request) as { productName: string; machineId: string };
      const out = path.resolve(options.out ?? `${productName}-${machine}.swdeactivate`);
      writeFileSync(out, request);
      // What the request stands for: this machine holds the licence no more.
      rmSync(licenceFile);
      io.log(`removed ${licenceFile}; wrote ${out}: upload it on the offline panel to free the seat`);
      return 0;
    }
    case 'verify-receipt': {
      const file = readFileSync(required(options, 'file'), 'utf8');
      const requestFile = options['request-file'];
      const proof = requestFile
        ? String((JSON.parse(readFileSync(requestFile, 'utf8')) as { proof?: unknown }).proof)
        : undefined;
      const key = (await call(baseUrl, 'GetOfflinePublicKey')).Result;
      const receipt = verifyDeactivationReceipt(file, key.PublicKeyPem, proof);
      io.log(`valid receipt: ${receipt.productName} on ${receipt.machineId} deactivated at ${receipt.deactivatedAt}`);
      return 0;
    }
    case 'open-portal': {
      const state = readState();
      const result = (
        await call(
          options.url ? baseUrl : state.url,
          'CreateWebLoginCode',
          options.path ? { path: options.path } : {},
          state.token,
        )
      ).Result;
      io.log(result.Url);
      return 0;
    }
    case 'logout': {
      if (existsSync(stateFile)) {
        const state = readState();
        await call(state.url, 'Logout', {}, state.token).catch(() => undefined);
        rmSync(stateFile);
      }
      io.log('signed out');
      return 0;
    }
    default:
      io.log(`Unknown command: ${command}\n\n${HELP}`);
      return 1;
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (isMain) {
  const ask = async (question: string) => {
    const terminal = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return await terminal.question(question);
    } finally {
      terminal.close();
    }
  };
  runSimulator(process.argv.slice(2), {
    log: (line) => console.log(line),
    env: process.env,
    ...(process.stdin.isTTY ? { ask } : {}),
  }).then(
    (code) => process.exit(code),
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      const cause = (error as { cause?: { code?: string } })?.cause?.code;
      console.error(cause === 'ECONNREFUSED' ? `Cannot reach the service: is it running? (${message})` : message);
      process.exit(error instanceof UsageError ? 2 : 1);
    },
  );
}
