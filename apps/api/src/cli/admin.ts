import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type CallName, type CallResult, callRoutes } from '@soundid/contracts';
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
type AdminApi = <N extends AdminCallName>(name: N, input?: Record<string, unknown>) => Promise<CallResult<N>>;
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
  const api: AdminApi = async (name, input) => {
    const { method, path: apiPath } = callRoutes[name];
    const query = method === 'GET' && input ? `?${new URLSearchParams(input as Record<string, string>)}` : '';
    const body = method === 'POST' ? (input ?? {}) : undefined;
    const res = await fetch(`${baseUrl}${apiPath}${query}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    const envelope = (await res.json()) as {
      Success: boolean;
      Result?: CallResult<typeof name>;
      Fault?: { ExceptionName: string; ExceptionUserText: string };
    };
    if (!envelope.Success) throw new Error(`${envelope.Fault?.ExceptionName}: ${envelope.Fault?.ExceptionUserText}`);
    return envelope.Result as CallResult<typeof name>;
  };
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
