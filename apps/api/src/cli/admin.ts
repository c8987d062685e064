import { existsSync, openAsBlob, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CallName, type CallResult, callRoutes, formatFileSize, RELEASE_PLATFORM_NAMES } from '@soundid/contracts';
import { servicePublicUrl } from '../config';

/**
 * The operator CLI (`npm run admin -- <command>`). It talks to a running service through
 * /api/admin/*, so it works the same on the embedded database (one process only) and on
 * PostgreSQL.
 */
const HELP = `Usage: npm run admin -- <command> [options]

Commands:
  user --email <address>     Show a customer: id, verification, password, sessions, providers
  metrics                    Heap, RSS and database connections of the service
  orders --email <address>   Storefront orders (perpetual licence) of an address or its account, with their keys
  payment-mismatches         Card payments not credited: amount or currency not as their checkout offered
  grant-tokens --email <address> --amount <n> [--reference <ticket>]
                             Credit voice AI tokens (valid 12 months); the same reference credits once
  products                   The catalogue: each product's code, ProductName, line, kind and seats
  issue-keys --product <code> --count <n>
                             New activation keys of a product, one per line
  issue-upgrade-codes --product <target code> --from <code,...> --count <n> [--shape upg|seven|grace]
                             New upgrade codes to the target product for keys of the --from products
                             (shape: UPG-… (default), 7 characters, or …GRACE; voice AI: UPG- only)
  add-serials (--serials <serial,...> | --file <path, one serial a line>)
                             Monitor serials for the ADAM Audio 60-day trial claim
  upload-release --product <code> --platform macos|windows --version <semver>
                 (--notes <text> | --notes-file <path>) --file <installer>
                             Publish an installer (.dmg/.pkg/.zip for macOS, .exe/.msi/.zip for Windows)
                             on the download center; prints its id and SHA-256
  releases [--product <code>]
                             The published releases, highest version first; * marks each latest
  remove-release --id <release file id>
                             Withdraw a release and delete its installer

Options:
  --url <url>                The service (default: PUBLIC_URL, else http://localhost:$PORT, PORT 3000)
  --token <token>            Operator token (default: ADMIN_TOKEN, else DATA_DIR/admin-token)
  --help                     Show this help
`;

type Args = Record<string, string | boolean | undefined>;

interface Command {
  /** The command's own options (all take a value). */
  options: string[];
  run(args: Args, api: AdminApi): Promise<void>;
}

/**
 * An operator call by its name (packages/contracts' callRoutes): its result's type follows from
 * the name (docs/api.md, Typed results). A GET's query, a POST's body.
 */
interface AdminApi {
  <N extends AdminCallName>(name: N, input?: Record<string, unknown>): Promise<CallResult<N>>;
  /** A call whose body is a multipart form (an upload), streamed from its files. */
  form<N extends AdminCallName>(name: N, form: FormData): Promise<CallResult<N>>;
}
type AdminCallName = {
  [N in CallName]: (typeof callRoutes)[N]['auth'] extends 'operator' ? N : never;
}[CallName];

const commands: Record<string, Command> = {
  user: {
    options: ['email'],
    async run(args, api) {
      const email = requireOption(args, 'email');
      const user = await api('AdminUser', { email });
      for (const [key, value] of Object.entries(user)) {
        console.log(`${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
      }
    },
  },
  // Storefront: a customer's perpetual licence orders, for support
  orders: {
    options: ['email'],
    async run(args, api) {
      const email = requireOption(args, 'email');
      const orders = await api('AdminStorefrontOrders', { email });
      if (orders.length === 0) console.log('no storefront orders');
      for (const order of orders) {
        const test = order.IsTest ? ' (test)' : '';
        console.log(
          `${order.Name} order ${order.OrderId}${test} ${order.CreatedAt} ${order.Status} x${order.Quantity}`,
        );
        console.log(`  e-mail ${order.Email ?? '-'}, granted to ${order.Account ?? '-'}`);
        if (order.RefundedQuantity > 0) console.log(`  refunded x${order.RefundedQuantity}`);
        for (const key of order.Keys) {
          console.log(`  ${key.Key}  ${key.Revoked ? 'revoked (refunded)' : (key.RegisteredTo ?? 'not registered')}`);
        }
      }
    },
  },
  'payment-mismatches': {
    options: [],
    async run(_args, api) {
      const mismatches = await api('AdminPaymentMismatches');
      if (mismatches.length === 0) console.log('no payment mismatches');
      for (const m of mismatches) {
        const received = `${m.ReceivedAmountInCents ?? '?'} ${m.ReceivedCurrency ?? '?'}`;
        console.log(
          `${m.RecordedAt} ${m.Provider} ${m.EventId} ${m.InvoiceTag} ${m.Customer ?? '-'} expected ${m.ExpectedAmountInCents} ${m.ExpectedCurrency}, received ${received}`,
        );
      }
    },
  },
  metrics: {
    options: [],
    async run(_args, api) {
      console.log(JSON.stringify(await api('AdminMetrics'), null, 2));
    },
  },
  'grant-tokens': {
    options: ['email', 'amount', 'reference'],
    async run(args, api) {
      const amount = Number(requireOption(args, 'amount'));
      if (!Number.isInteger(amount) || amount <= 0) throw new UsageError('--amount must be a positive whole number');
      const reference = typeof args.reference === 'string' ? args.reference : undefined;
      const result = await api('AdminGrantTokens', {
        email: requireOption(args, 'email'),
        amount,
        ...(reference ? { reference } : {}),
      });
      console.log(result.Credited ? `granted ${result.Amount} tokens` : 'already granted for this reference');
      console.log(`balance ${result.TokenBalance}`);
    },
  },
  products: {
    options: [],
    async run(_args, api) {
      const products = await api('AdminProducts');
      for (const p of products) {
        console.log(
          [
            p.Code.padEnd(22),
            p.ProductName.padEnd(28),
            `${p.Line}/${p.Kind}`.padEnd(26),
            String(p.InstancesMax).padEnd(3),
            p.DisplayName,
          ].join(' '),
        );
      }
    },
  },
  'issue-keys': {
    options: ['product', 'count'],
    async run(args, api) {
      const result = await api('AdminIssueKeys', {
        product: requireOption(args, 'product'),
        count: positiveCount(args),
      });
      for (const key of result.Keys) console.log(key);
    },
  },
  'issue-upgrade-codes': {
    options: ['product', 'from', 'count', 'shape'],
    async run(args, api) {
      const from = requireOption(args, 'from')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const result = await api('AdminIssueUpgradeCodes', {
        product: requireOption(args, 'product'),
        from,
        count: positiveCount(args),
        ...(typeof args.shape === 'string' ? { shape: args.shape } : {}),
      });
      for (const code of result.Codes) console.log(code);
    },
  },
  'add-serials': {
    options: ['serials', 'file'],
    async run(args, api) {
      const raw =
        typeof args.file === 'string'
          ? readFileSync(args.file, 'utf8')
          : typeof args.serials === 'string'
            ? args.serials
            : '';
      const serials = raw
        .split(/[\s,]+/)
        .map((s) => s.trim())
        .filter(Boolean);
      if (serials.length === 0) throw new UsageError('--serials or --file is required');
      const result = await api('AdminAddSerials', { serials });
      console.log(`added ${result.Added}, already present ${result.AlreadyPresent}`);
    },
  },
  // Releases and the download center (docs/decisions/0046-release-storage.md)
  'upload-release': {
    options: ['product', 'platform', 'version', 'notes', 'notes-file', 'file'],
    async run(args, api) {
      const notes =
        typeof args['notes-file'] === 'string'
          ? readFileSync(args['notes-file'], 'utf8')
          : requireOption(args, 'notes');
      const file = requireOption(args, 'file');
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`--file ${file} is not a file`);
      // Fields first, then the file: the service refuses a bad field before reading the installer.
      const form = new FormData();
      form.append('product', requireOption(args, 'product'));
      form.append('platform', requireOption(args, 'platform'));
      form.append('version', requireOption(args, 'version'));
      form.append('notes', notes);
      // A file-backed Blob: the installer is streamed, never read into memory whole.
      form.append('file', await openAsBlob(file), path.basename(file));
      const release = await api.form('AdminUploadRelease', form);
      console.log(release.ReleaseFileId);
      console.log(
        `published ${release.Product} ${release.Version} for ${RELEASE_PLATFORM_NAMES[release.Platform]}: ${release.FileName}, ${formatFileSize(release.SizeBytes)}`,
      );
      console.log(`sha256 ${release.Sha256}`);
      if (!release.IsLatest) console.log('(a higher version is published: this one is listed with the older versions)');
    },
  },
  releases: {
    options: ['product'],
    async run(args, api) {
      const list = await api('AdminReleases', typeof args.product === 'string' ? { product: args.product } : {});
      if (list.length === 0) console.log('no releases');
      for (const r of list) {
        console.log(
          [
            r.IsLatest ? '*' : ' ',
            r.Product.padEnd(22),
            r.Platform.padEnd(8),
            r.Version.padEnd(16),
            r.PublishedAt,
            r.ReleaseFileId,
            formatFileSize(r.SizeBytes).padStart(9),
            r.FileName,
          ].join(' '),
        );
        console.log(`    sha256 ${r.Sha256}`);
      }
    },
  },
  'remove-release': {
    options: ['id'],
    async run(args, api) {
      await api('AdminRemoveRelease', { releaseFileId: requireOption(args, 'id') });
      console.log('removed');
    },
  },
};

function positiveCount(args: Args): number {
  const count = Number(requireOption(args, 'count'));
  if (!Number.isInteger(count) || count <= 0) throw new UsageError('--count must be a positive whole number');
  return count;
}

function requireOption(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`--${name} is required`);
  return value;
}

class UsageError extends Error {}

function operatorToken(explicit: string | undefined): string {
  if (explicit) return explicit;
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = path.resolve(process.env.DATA_DIR ?? './data', 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new UsageError(`No operator token: set ADMIN_TOKEN or start the service once to create ${file}`);
}

async function main(argv: string[]): Promise<number> {
  const name = argv[0]?.startsWith('-') ? undefined : argv[0];
  const rest = name ? argv.slice(1) : argv;
  if (!name || argv.includes('--help')) {
    console.log(HELP);
    return name || argv.includes('--help') ? 0 : 1;
  }
  const command = commands[name];
  if (!command) {
    console.error(`Unknown command: ${name}\n\n${HELP}`);
    return 1;
  }
  let values: Args;
  try {
    values = parseArgs({
      args: rest,
      strict: true,
      options: Object.fromEntries(
        ['url', 'token', ...command.options].map((option) => [option, { type: 'string' as const }]),
      ),
    }).values as Args;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const baseUrl = typeof values.url === 'string' ? values.url.replace(/\/$/, '') : servicePublicUrl(process.env);
  const token = operatorToken(typeof values.token === 'string' ? values.token : undefined);
  const send = async <N extends AdminCallName>(name: N, init: RequestInit, query = ''): Promise<CallResult<N>> => {
    const { method, path: apiPath } = callRoutes[name];
    const res = await fetch(`${baseUrl}${apiPath}${query}`, {
      ...init,
      method,
      headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string> | undefined) },
    });
    const envelope = (await res.json()) as {
      Success: boolean;
      Result?: CallResult<N>;
      Fault?: { ExceptionName: string; ExceptionUserText: string };
    };
    if (!envelope.Success) throw new Error(`${envelope.Fault?.ExceptionName}: ${envelope.Fault?.ExceptionUserText}`);
    return envelope.Result as CallResult<N>;
  };
  const api = (async (name, input) => {
    const { method } = callRoutes[name];
    const query = method === 'GET' && input ? `?${new URLSearchParams(input as Record<string, string>)}` : '';
    const body = method === 'POST' ? (input ?? {}) : undefined;
    return send(
      name,
      body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {},
      query,
    );
  }) as AdminApi;
  api.form = (name, form) => send(name, { body: form });
  await command.run(values, api);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    const cause = (error as { cause?: { code?: string } })?.cause?.code;
    console.error(cause === 'ECONNREFUSED' ? `Cannot reach the service: is it running? (${message})` : message);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
