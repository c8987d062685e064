import { chmodSync, existsSync, mkdirSync, openAsBlob, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import {
  type CallName,
  type CallResult,
  CUSTOMER_SEARCH_KINDS,
  callRoutes,
  csvRowsOf,
  customerPageSchema,
  type FaultBody,
  formatFileSize,
  OPERATOR_API_TOKEN_DEFAULT_DAYS,
  RELEASE_PLATFORM_NAMES,
} from '@soundid/contracts';
import { servicePublicUrl } from '../config';

/**
 * The operator CLI (`npm run admin -- <command>`). It talks to a running service through
 * /api/admin/*, so it works the same on the embedded database (one process only) and on
 * PostgreSQL.
 */
const HELP = `Usage: npm run admin -- <command> [options]

Operators (ADR 0044):
  bootstrap --email <address> --name <name>
                             Invite the first admin with the bootstrap token (ADMIN_TOKEN, else
                             DATA_DIR/admin-token); works until an admin has activated
  accept-invitation --link <invitation link> [--code <code>]
                             Set your password and authenticator app from an invitation (prompts
                             for both; for scripts: OPERATOR_PASSWORD, then confirm-invitation)
  confirm-invitation --link <invitation link> --code <code>
                             Activate with the first code of the authenticator app
  login --email <address> [--code <code>] [--days <n>] [--scope read|write]
                             Sign in (password and authenticator code; OPERATOR_PASSWORD for
                             scripts) and keep a personal API token for this service in
                             ~/.config/my-soundid/operator-tokens.json (XDG_CONFIG_HOME)
  logout                     Revoke the kept token and forget it
  whoami                     The operator, roles and token in use
  tokens                     Your API tokens (an admin sees everyone's)
  revoke-token --id <id>     Revoke an API token
  operators                  Every operator (admin)
  invite --email <address> --name <name> --roles <support,finance,admin> --reason <why>
  set-roles --id <operator id> --roles <roles> --reason <why>
  disable-operator --id <operator id> --reason <why>
  audit [--operator <address>] [--customer <address>] [--action <call>]
                             The audit trail, newest first
  verify-audit               Prove the audit trail's hash chain, or name the first broken entry

Customers and catalogue:
  search <query> [--by email|key|device|order|invoice]
                             Find customers by e-mail prefix, licence key (in full or its last
                             group), device name or machine id, storefront order (#1001) or
                             invoice tag; without --by, every kind
  user --email <address>     Show a customer: id, verification, password, sessions, providers,
                             sign-in lock, second factor, keys (last six characters), licences
                             with their devices and deactivations, active devices (ids), trials,
                             tokens, card payments, storefront orders, mails and audit entries
  unlock-sign-in --email <address> --reason <why>
                             Clear the sign-in lockout of an address
  end-sessions --email <address> --reason <why>
                             End every session of a customer
  resend-verification --email <address> --reason <why>
                             Mail a new verification link to a customer who has not verified
  deactivate-device --id <device id> --reason <why>
                             Deactivate a device, not counted in the customer's allowance
  undo-lost-report --id <device id> --reason <why>
                             Let a machine reported lost or stolen (and found) use its licence again
  move-licence --key <licence key> --to <address> --reason <why>
                             Move a licence key (and its seats) to another account
  reset-deactivations --key <licence key> --reason <why>
                             Give the licence its whole deactivation allowance back (the ones
                             counted are forgiven, kept in its history)
  metrics                    Heap, RSS and database connections of the service
  jobs                       The job queue (ADR 0051): each job's schedule, and how many are
                             queued, running, failed and done
  run-job <name> --reason <why>
                             Run a scheduled job now (release-idle-seats, purge-mail-log, token-expiry-notices)
  orders --email <address>   Storefront orders (perpetual licence) of an address or its account, with their keys
  refund-order --order <#1001 | order id> [--quantity <n>] --reference <ticket> --reason <why>
                             Refund a storefront order's licences through the store (Shopify, or the
                             sandbox): all not refunded yet, or --quantity; its keys are taken back;
                             the same reference refunds once
  payment-mismatches         Card payments not credited: amount or currency not as their checkout offered
  grant-tokens --email <address> --amount <n> --reason <why> [--reference <ticket>] [--expires-in-days <n>]
                             Credit voice AI tokens (valid 12 months, or --expires-in-days, 1 to 365);
                             the same reference credits once
  withdraw-tokens --email <address> --amount <n> --reference <ticket> --reason <why>
                             Take voice AI tokens back, earliest lots first, never below zero;
                             the same reference withdraws once
  refund-payment --invoice-tag <inv_…> [--amount-cents <n>] --reference <ticket> --reason <why>
                             Refund a card payment through the payment provider (Stripe, or the
                             sandbox): what is left of it, or --amount-cents; its tokens are taken
                             back; the same reference refunds once
  products                   The catalogue: each product's code, ProductName, line, kind and seats
  issue-keys --product <code> --count <n> --reason <why>
                             New activation keys of a product, one per line
  issue-upgrade-codes --product <target code> --from <code,...> --count <n> --reason <why> [--shape upg|seven|grace]
                             New upgrade codes to the target product for keys of the --from products
                             (shape: UPG-… (default), 7 characters, or …GRACE; voice AI: UPG- only)
  add-serials (--serials <serial,...> | --file <path, one serial a line>) --reason <why>
                             Monitor serials for the ADAM Audio 60-day trial claim
  import-serials --file <path.csv> --reason <why>
                             The same from a CSV file (serial in the first column, header 'serial'
                             optional): every bad row is listed and nothing is imported until all are good
  upload-release --product <code> --platform macos|windows --version <semver>
                 (--notes <text> | --notes-file <path>) --file <installer> --reason <why>
                             Publish an installer (.dmg/.pkg/.zip for macOS, .exe/.msi/.zip for Windows)
                             on the download center; prints its id and SHA-256
  releases [--product <code>]
                             The published releases, highest version first; * marks each latest
  remove-release --id <release file id> --reason <why>
                             Withdraw a release and delete its installer

Every change needs --reason (a sentence or a ticket reference): it goes to the audit trail.

Options:
  --url <url>                The service (default: PUBLIC_URL, else http://localhost:$PORT, PORT 3000)
  --token <token>            An operator API token (default: SOUNDID_OPERATOR_TOKEN, else the one
                             \`login\` kept for the service)
  --help                     Show this help
`;

type Args = Record<string, string | boolean | undefined>;

interface Command {
  /** The command's own options (all take a value). */
  options: string[];
  /** False for the commands that sign in on their own (bootstrap, invitation, login). */
  signedIn?: false;
  /** The name (in `args`) of the one argument given without an option, if the command takes one. */
  positional?: string;
  run(args: Args, api: AdminApi, context: { baseUrl: string }): Promise<void>;
}

/**
 * An operator call by its name (packages/contracts' callRoutes): its result's type follows from
 * the name (docs/api.md, Typed results). A GET's query, a POST's body.
 */
interface AdminApi {
  <N extends CallName>(
    name: N,
    input?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<CallResult<N>>;
  /** A call whose body is a multipart form (an upload), streamed from its files. */
  form<N extends CallName>(name: N, form: FormData): Promise<CallResult<N>>;
}

/** A support ticket on a customer's account: `--email`, `--reason`, one line of outcome. */
function customerTicket<N extends 'AdminUnlockSignIn' | 'AdminEndCustomerSessions' | 'AdminResendVerification'>(
  call: N,
  outcome: (result: CallResult<N>) => string,
): Command {
  return {
    options: ['email', 'reason'],
    async run(args, api) {
      console.log(
        outcome(await api(call, { email: requireOption(args, 'email'), reason: requireOption(args, 'reason') })),
      );
    },
  };
}

/** Finance's change to a customer's tokens: `--email`, `--amount`, `--reason`, `--reference` once. */
function tokenChange<N extends 'AdminGrantTokens' | 'AdminWithdrawTokens'>(
  call: N,
  outcome: (result: CallResult<N>) => string,
): Command {
  return {
    options: ['email', 'amount', 'reference', 'reason', ...(call === 'AdminGrantTokens' ? ['expires-in-days'] : [])],
    async run(args, api) {
      const result = await api(call, {
        email: requireOption(args, 'email'),
        amount: positiveInteger(args, 'amount'),
        reason: requireOption(args, 'reason'),
        // A withdrawal happens once per reference, so it needs one; a grant may go without.
        ...(call === 'AdminWithdrawTokens' ? { reference: requireOption(args, 'reference') } : referenceOf(args)),
        ...(args['expires-in-days'] === undefined ? {} : { expiresInDays: positiveInteger(args, 'expires-in-days') }),
      });
      console.log(outcome(result));
      console.log(`balance ${result.TokenBalance}`);
    },
  };
}

/** `--reference`, when given: what makes a change happen once. */
function referenceOf(args: Args): { reference?: string } {
  return typeof args.reference === 'string' && args.reference ? { reference: args.reference } : {};
}

const commands: Record<string, Command> = {
  bootstrap: {
    options: ['email', 'name'],
    signedIn: false,
    async run(args, api) {
      const result = await api(
        'OperatorBootstrap',
        { email: requireOption(args, 'email'), name: requireOption(args, 'name') },
        { authorization: `Bearer ${bootstrapToken()}` },
      );
      console.log(`invited ${result.Operator.Email} as the first admin; the link was mailed too:`);
      console.log(result.InvitationUrl);
      console.log('next: npm run admin -- accept-invitation --link <the link>, then npm run admin -- login');
    },
  },
  'accept-invitation': {
    options: ['link', 'code'],
    signedIn: false,
    async run(args, api) {
      const token = invitationToken(args);
      const password =
        process.env.OPERATOR_PASSWORD || (await prompt('Choose a password (12 or more characters): ', true));
      const accepted = await api('AcceptOperatorInvitation', { token, password });
      console.log(`Add this account to your authenticator app (${accepted.Email}):`);
      console.log(`  secret: ${accepted.TotpSecret}`);
      console.log(`  or the URL: ${accepted.OtpauthUrl}`);
      if (typeof args.code !== 'string' && !process.stdin.isTTY) {
        console.log('then: npm run admin -- confirm-invitation --link <the link> --code <the code the app shows>');
        return;
      }
      const code = typeof args.code === 'string' ? args.code : await prompt('Code shown by the app: ');
      await api('ConfirmOperatorInvitation', { token, code });
      console.log(`${accepted.Email} is active: npm run admin -- login --email ${accepted.Email}`);
    },
  },
  'confirm-invitation': {
    options: ['link', 'code'],
    signedIn: false,
    async run(args, api) {
      const confirmed = await api('ConfirmOperatorInvitation', {
        token: invitationToken(args),
        code: requireOption(args, 'code'),
      });
      console.log(`${confirmed.Email} is active: npm run admin -- login --email ${confirmed.Email}`);
    },
  },
  login: {
    options: ['email', 'code', 'days', 'scope'],
    signedIn: false,
    async run(args, api, { baseUrl }) {
      const email = requireOption(args, 'email');
      const password = process.env.OPERATOR_PASSWORD || (await prompt('Password: ', true));
      const { Challenge } = await api('OperatorLogin', { email, password });
      const code = typeof args.code === 'string' ? args.code : await prompt('Authenticator code: ');
      const session = await api('OperatorLoginSecondFactor', { challenge: Challenge, code, answer: 'token' });
      const signedIn = { authorization: `Bearer ${session.Token}` };
      const days = typeof args.days === 'string' ? Number(args.days) : OPERATOR_API_TOKEN_DEFAULT_DAYS;
      const scope = args.scope === 'read' ? 'read' : 'write';
      const created = await api(
        'CreateOperatorApiToken',
        { name: `npm run admin on ${os.hostname()}`, scope, days },
        signedIn,
      );
      // The sign-in's own session is not needed once the token exists.
      await api('OperatorLogout', {}, signedIn);
      keepToken(baseUrl, created.Token);
      console.log(`signed in as ${session.Operator.Email} (${session.Operator.Roles.join(', ')})`);
      console.log(`API token "${created.ApiToken.Name}" (${scope}) kept until ${created.ApiToken.ExpiresAt}`);
    },
  },
  logout: {
    options: [],
    async run(_args, api, { baseUrl }) {
      const me = await api('OperatorMe');
      if (me.Via === 'token') await api('RevokeOperatorApiToken', { id: me.CredentialId });
      forgetToken(baseUrl);
      console.log(`signed out: the API token of ${me.Operator.Email} is revoked and forgotten`);
    },
  },
  whoami: {
    options: [],
    async run(_args, api) {
      const me = await api('OperatorMe');
      console.log(`${me.Operator.Email} (${me.Operator.Roles.join(', ')}) via ${me.Via}, scope ${me.Scope}`);
    },
  },
  tokens: {
    options: [],
    async run(_args, api) {
      for (const t of await api('ListOperatorApiTokens')) {
        const state = t.RevokedAt ? `revoked ${t.RevokedAt}` : `expires ${t.ExpiresAt}`;
        console.log(`${t.Id}  ${t.Operator}  "${t.Name}"  ${t.Scope}  last used ${t.LastUsedAt ?? 'never'}  ${state}`);
      }
    },
  },
  'revoke-token': {
    options: ['id'],
    async run(args, api) {
      await api('RevokeOperatorApiToken', { id: requireOption(args, 'id') });
      console.log('revoked');
    },
  },
  operators: {
    options: [],
    async run(_args, api) {
      for (const o of await api('ListOperators')) {
        console.log(
          `${o.Id}  ${o.Email}  ${o.Name}  ${o.Roles.join(',')}  ${o.Status}  last sign-in ${o.LastSignInAt ?? 'never'}`,
        );
      }
    },
  },
  invite: {
    options: ['email', 'name', 'roles', 'reason'],
    async run(args, api) {
      const result = await api('InviteOperator', {
        email: requireOption(args, 'email'),
        name: requireOption(args, 'name'),
        roles: listOption(args, 'roles'),
        reason: requireOption(args, 'reason'),
      });
      console.log(`invited ${result.Operator.Email} (${result.Operator.Roles.join(', ')}); the link was mailed too:`);
      console.log(result.InvitationUrl);
    },
  },
  'set-roles': {
    options: ['id', 'roles', 'reason'],
    async run(args, api) {
      const result = await api('SetOperatorRoles', {
        id: requireOption(args, 'id'),
        roles: listOption(args, 'roles'),
        reason: requireOption(args, 'reason'),
      });
      console.log(`${result.Operator.Email}: ${result.Operator.Roles.join(', ')}`);
    },
  },
  'disable-operator': {
    options: ['id', 'reason'],
    async run(args, api) {
      const result = await api('DisableOperator', {
        id: requireOption(args, 'id'),
        reason: requireOption(args, 'reason'),
      });
      console.log(`${result.Operator.Email}: ${result.Operator.Status}`);
    },
  },
  audit: {
    options: ['operator', 'customer', 'action'],
    async run(args, api) {
      const filter = Object.fromEntries(
        (['operator', 'customer', 'action'] as const).flatMap((k) =>
          typeof args[k] === 'string' ? [[k, args[k]]] : [],
        ),
      );
      const page = await api('SearchAudit', filter);
      for (const e of page.Entries) {
        const target = e.TargetType ? ` ${e.TargetType}:${e.TargetId}` : '';
        const customer = e.Customer ? ` customer ${e.Customer}` : '';
        console.log(
          `#${e.Seq} ${e.At} ${e.Operator ?? '(bootstrap token)'} ${e.Action} ${e.Outcome}${target}${customer}${e.Reason ? ` — ${e.Reason}` : ''}`,
        );
      }
      if (page.More) console.log('… older entries: narrow the search');
    },
  },
  'verify-audit': {
    options: [],
    async run(_args, api) {
      const result = await api('VerifyAudit');
      if (result.Intact) {
        console.log(`audit trail intact: ${result.Entries} entries, each chained to the one before`);
        return;
      }
      throw new Error(`audit trail BROKEN at entry ${result.FirstBroken?.Seq}: ${result.FirstBroken?.Problem}`);
    },
  },
  search: {
    options: ['by'],
    positional: 'query',
    async run(args, api) {
      const q = requireOption(args, 'query', 'a query (npm run admin -- search <query> [--by kind])');
      const by = typeof args.by === 'string' ? args.by : undefined;
      if (by && !(CUSTOMER_SEARCH_KINDS as readonly string[]).includes(by)) {
        throw new UsageError(`--by must be one of ${CUSTOMER_SEARCH_KINDS.join(', ')}`);
      }
      const found = await api('AdminSearchCustomers', { q, ...(by ? { by } : {}) });
      if (found.Customers.length === 0) console.log('no customer found');
      for (const c of found.Customers) {
        const matched = c.MatchedBy === 'key' ? `…${c.Matched}` : c.Matched;
        const verified = c.EmailVerified ? 'verified' : 'not verified';
        console.log(`${c.Email}  ${c.Id}  ${verified}  since ${c.CreatedAt}  (${c.MatchedBy}: ${matched})`);
      }
      if (found.More) console.log(`… more than ${found.Customers.length}: narrow the query`);
    },
  },
  user: {
    options: ['email'],
    async run(args, api) {
      const email = requireOption(args, 'email');
      const page = await api('AdminUser', { email });
      for (const [key, value] of Object.entries(page)) {
        if (customerPageSections.has(key)) continue;
        console.log(`${key}: ${typeof value === 'object' ? JSON.stringify(value) : String(value)}`);
      }
      const { Keys, Devices, SecondFactor: factor, Sessions, Licences, Trials, TokenBalance, TokenLots } = page;
      const { TokenUsage, CardPayments, StorefrontOrders, Mails, Audit } = page;
      console.log(
        `SecondFactor: TOTP ${factor.Totp ? 'on' : 'off'}, ${factor.RecoveryCodesLeft} recovery codes left, ${factor.Passkeys} passkey(s)`,
      );
      printList(
        `Sessions: ${Sessions.length} live`,
        Sessions,
        (s) => `${s.Device}  last seen ${s.LastSeenAt}  expires ${s.ExpiresAt}`,
      );
      printList(
        `Keys: ${Keys.length}`,
        Keys,
        (k) => `${k.Product}  …${k.KeyEnding}  registered ${k.RegisteredAt ?? '-'}`,
        Infinity,
      );
      console.log(`Licences: ${Licences.length}`);
      for (const l of Licences) {
        const keys = l.KeyEnding ? `keys …${l.KeyEnding.split(', ').join(', …')}` : 'no key';
        console.log(
          `  ${l.Product}  ${keys}  ${l.Seats} seat(s)  deactivations ${l.DeactivationsUsed}/${l.DeactivationsAllowed}  ${l.Devices.length} device(s)`,
        );
        for (const d of l.Devices.filter((d) => d.DeactivatedAt !== null).slice(-BRIEF)) {
          console.log(`    ended "${d.Name}" ${d.DeactivatedAt} (${d.DeactivationCause ?? '-'})`);
        }
      }
      printList(
        `Devices: ${Devices.length} active`,
        Devices,
        (d) => `${d.Id}  ${d.Product}  "${d.Name}"  ${d.MachineId}  since ${d.ActivatedAt}`,
        Infinity,
      );
      printList(`Trials: ${Trials.length}`, Trials, (t) => `${t.Product}  ${t.StartedAt} to ${t.EndsAt}`);
      console.log(`Tokens: balance ${TokenBalance}`);
      printList(
        `  lots: ${TokenLots.length}`,
        TokenLots,
        (l) =>
          `  ${l.Source} ${l.Amount} (${l.Remaining} left) ${l.CreatedAt} expires ${l.ExpiresAt}  ${l.Reference ?? ''}`,
      );
      printList(
        `  usage: ${TokenUsage.length}`,
        TokenUsage,
        (u) => `  ${u.At}  ${u.Tokens} tokens, ${u.Seconds} s (${u.Type})`,
      );
      printList(
        `CardPayments: ${CardPayments.length}`,
        CardPayments,
        (p) =>
          `${p.InvoiceTag}  ${p.Item}  ${p.AmountInCents} ${p.Currency}${p.RefundedInCents ? ` (refunded ${p.RefundedInCents})` : ''}  ${p.Status}  ${p.CreatedAt}`,
      );
      printList(
        `StorefrontOrders: ${StorefrontOrders.length}`,
        StorefrontOrders,
        (o) => `${o.Name}  ${o.Status} x${o.Quantity}  ${o.CreatedAt}`,
      );
      printList(`Mails: ${Mails.length}`, Mails, (m) => `${m.At}  ${m.Status}  ${m.Subject}`);
      printList(
        `Audit: ${Audit.length}`,
        Audit,
        (e) =>
          `#${e.Seq} ${e.At} ${e.Operator ?? '(bootstrap token)'} ${e.Action} ${e.Outcome}${e.Reason ? ` — ${e.Reason}` : ''}`,
      );
    },
  },
  // Support's everyday tickets (ADR 0044)
  'unlock-sign-in': customerTicket('AdminUnlockSignIn', (r) =>
    r.WasLocked ? 'unlocked: the customer can sign in again' : 'was not locked',
  ),
  'end-sessions': customerTicket('AdminEndCustomerSessions', (r) => `ended ${r.SessionsEnded} session(s)`),
  'resend-verification': customerTicket('AdminResendVerification', (r) =>
    r.Sent ? 'sent a new verification link' : 'already verified: nothing sent',
  ),
  'deactivate-device': {
    options: ['id', 'reason'],
    async run(args, api) {
      const result = await api('AdminDeactivateDevice', {
        deviceId: requireOption(args, 'id'),
        reason: requireOption(args, 'reason'),
      });
      console.log(
        `deactivated "${result.Device}" (${result.Product}) of ${result.Customer}; not counted in their allowance`,
      );
    },
  },
  'undo-lost-report': {
    options: ['id', 'reason'],
    async run(args, api) {
      const result = await api('AdminUndoLostReport', {
        deviceId: requireOption(args, 'id'),
        reason: requireOption(args, 'reason'),
      });
      console.log(
        `"${result.Device}" (${result.Product}) of ${result.Customer} may use its licence again; it takes a seat when activated`,
      );
    },
  },
  'move-licence': {
    options: ['key', 'to', 'reason'],
    async run(args, api) {
      const result = await api('AdminMoveLicence', {
        key: requireOption(args, 'key'),
        toEmail: requireOption(args, 'to'),
        reason: requireOption(args, 'reason'),
      });
      console.log(`moved the ${result.Product} key from ${result.From ?? 'no account'} to ${result.To}`);
    },
  },
  'reset-deactivations': {
    options: ['key', 'reason'],
    async run(args, api) {
      const result = await api('AdminResetDeactivations', {
        key: requireOption(args, 'key'),
        reason: requireOption(args, 'reason'),
      });
      console.log(
        `forgave ${result.Forgiven} deactivation(s) of the ${result.Product} key …${result.KeyEnding}: its whole allowance is back`,
      );
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
  'refund-order': {
    options: ['order', 'quantity', 'reference', 'reason'],
    async run(args, api) {
      const result = await api('AdminRefundStorefrontOrder', {
        order: requireOption(args, 'order'),
        ...(args.quantity === undefined ? {} : { quantity: positiveInteger(args, 'quantity') }),
        reference: requireOption(args, 'reference'),
        reason: requireOption(args, 'reason'),
      });
      console.log(
        `${result.Name} (order ${result.OrderId}): ${result.RefundedQuantity} of ${result.Quantity} licence(s) refunded in all; ${result.Status}`,
      );
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
  jobs: {
    options: [],
    async run(_args, api) {
      const { Jobs } = await api('AdminJobs');
      for (const job of Jobs) {
        console.log(
          `${job.Name}  ${job.Schedule ? `schedule "${job.Schedule}" (UTC)` : 'on demand'}  queued ${job.Queued}, running ${job.Active}, failed ${job.Failed}, done ${job.Completed}${job.LastCompletedAt ? `, last done ${job.LastCompletedAt}` : ''}`,
        );
      }
    },
  },
  'run-job': {
    options: ['reason'],
    positional: 'name',
    async run(args, api) {
      const name = requireOption(args, 'name', 'the job name');
      const result = await api('AdminRunJob', { name, reason: requireOption(args, 'reason') });
      console.log(
        result.JobId
          ? `queued ${result.Name} (job ${result.JobId}); a replica working the queue runs it within seconds`
          : `${result.Name} is already queued or running: nothing added`,
      );
    },
  },
  'grant-tokens': tokenChange('AdminGrantTokens', (r) =>
    r.Credited ? `granted ${r.Amount} tokens` : 'already granted for this reference',
  ),
  'withdraw-tokens': tokenChange('AdminWithdrawTokens', (r) =>
    r.Withdrawn ? `withdrew ${r.Amount} tokens` : 'already withdrawn for this reference',
  ),
  'refund-payment': {
    options: ['invoice-tag', 'amount-cents', 'reference', 'reason'],
    async run(args, api) {
      const result = await api('AdminRefundPayment', {
        invoiceTag: requireOption(args, 'invoice-tag'),
        reason: requireOption(args, 'reason'),
        ...(args['amount-cents'] === undefined ? {} : { amountInCents: positiveInteger(args, 'amount-cents') }),
        reference: requireOption(args, 'reference'),
      });
      console.log(`${result.InvoiceTag}: ${result.RefundedInCents} of ${result.AmountInCents} cents refunded in all`);
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
    options: ['product', 'count', 'reason'],
    async run(args, api) {
      const result = await api('AdminIssueKeys', {
        product: requireOption(args, 'product'),
        count: positiveCount(args),
        reason: requireOption(args, 'reason'),
      });
      for (const key of result.Keys) console.log(key);
    },
  },
  'issue-upgrade-codes': {
    options: ['product', 'from', 'count', 'shape', 'reason'],
    async run(args, api) {
      const from = requireOption(args, 'from')
        .split(',')
        .map((c) => c.trim())
        .filter(Boolean);
      const result = await api('AdminIssueUpgradeCodes', {
        product: requireOption(args, 'product'),
        from,
        count: positiveCount(args),
        reason: requireOption(args, 'reason'),
        ...(typeof args.shape === 'string' ? { shape: args.shape } : {}),
      });
      for (const code of result.Codes) console.log(code);
    },
  },
  'add-serials': {
    options: ['serials', 'file', 'reason'],
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
      const result = await api('AdminAddSerials', { serials, reason: requireOption(args, 'reason') });
      console.log(`added ${result.Added}, already present ${result.AlreadyPresent}`);
    },
  },
  'import-serials': {
    options: ['file', 'reason'],
    async run(args, api) {
      const file = requireOption(args, 'file');
      if (!existsSync(file) || !statSync(file).isFile()) throw new UsageError(`--file ${file} is not a file`);
      const result = await api('AdminImportSerials', {
        csv: readFileSync(file, 'utf8'),
        reason: requireOption(args, 'reason'),
      });
      console.log(`${result.Rows} rows: added ${result.Added}, already present ${result.AlreadyPresent}`);
    },
  },
  // Releases and the download center (docs/decisions/0046-release-storage.md)
  'upload-release': {
    options: ['product', 'platform', 'version', 'notes', 'notes-file', 'file', 'reason'],
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
      form.append('reason', requireOption(args, 'reason'));
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
    options: ['id', 'reason'],
    async run(args, api) {
      await api('AdminRemoveRelease', {
        releaseFileId: requireOption(args, 'id'),
        reason: requireOption(args, 'reason'),
      });
      console.log('removed');
    },
  },
};

/** The entries of a customer page's list printed at most (the console shows them all). */
const BRIEF = 5;
/** The customer page's sections, printed by `user` each in its own way. */
const customerPageSections = new Set(['Keys', 'Devices', ...Object.keys(customerPageSchema.shape)]);

/** A heading and the first entries of a list, one a line, and how many more there are. */
function printList<T>(heading: string, items: T[], line: (item: T) => string, most = BRIEF): void {
  console.log(heading);
  for (const item of items.slice(0, most)) console.log(`  ${line(item)}`);
  if (items.length > most) console.log(`  … ${items.length - most} more`);
}

function positiveCount(args: Args): number {
  return positiveInteger(args, 'count');
}

function positiveInteger(args: Args, name: string): number {
  const value = Number(requireOption(args, name));
  if (!Number.isInteger(value) || value <= 0) throw new UsageError(`--${name} must be a positive whole number`);
  return value;
}

function requireOption(args: Args, name: string, what = `--${name}`): string {
  const value = args[name];
  if (typeof value !== 'string' || !value) throw new UsageError(`${what} is required`);
  return value;
}

class UsageError extends Error {}

function invitationToken(args: Args): string {
  return requireOption(args, 'link').split('/').pop() ?? '';
}

function listOption(args: Args, name: string): string[] {
  return requireOption(args, name)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

/** The bootstrap token: ADMIN_TOKEN, else the one the service wrote to DATA_DIR on first start. */
function bootstrapToken(): string {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = path.resolve(process.env.DATA_DIR ?? './data', 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  throw new UsageError(`No bootstrap token: set ADMIN_TOKEN or start the service once to create ${file}`);
}

/** Where `login` keeps each service's token: the operator's own, readable by them alone. */
function tokenFile(): string {
  const base = process.env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'my-soundid', 'operator-tokens.json');
}

function readTokens(): Record<string, string> {
  const file = tokenFile();
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}

function keepToken(baseUrl: string, token: string): void {
  const file = tokenFile();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, JSON.stringify({ ...readTokens(), [baseUrl]: token }, null, 2), { mode: 0o600 });
  chmodSync(file, 0o600);
}

function forgetToken(baseUrl: string): void {
  const tokens = readTokens();
  delete tokens[baseUrl];
  if (existsSync(tokenFile())) writeFileSync(tokenFile(), JSON.stringify(tokens, null, 2), { mode: 0o600 });
}

/** --token, SOUNDID_OPERATOR_TOKEN, or the token `login` kept for this service. */
function operatorToken(explicit: string | undefined, baseUrl: string): string {
  const token = explicit || process.env.SOUNDID_OPERATOR_TOKEN || readTokens()[baseUrl];
  if (!token) throw new UsageError(`Not signed in to ${baseUrl}: npm run admin -- login --email <address>`);
  return token;
}

/** A line from the terminal; hidden while typed when `secret` (a password). */
async function prompt(question: string, secret = false): Promise<string> {
  if (!process.stdin.isTTY) throw new UsageError(`${question.trim()} needed: run in a terminal (or see --help)`);
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: true });
  if (secret) {
    const output = rl as unknown as { _writeToOutput: (s: string) => void };
    output._writeToOutput = (s: string) => {
      if (s.includes(question)) process.stdout.write(question);
    };
  }
  const answer = await rl.question(question);
  rl.close();
  if (secret) process.stdout.write('\n');
  return answer.trim();
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
    const parsed = parseArgs({
      args: rest,
      strict: true,
      allowPositionals: command.positional !== undefined,
      options: Object.fromEntries(
        ['url', 'token', ...command.options].map((option) => [option, { type: 'string' as const }]),
      ),
    });
    values = parsed.values as Args;
    if (command.positional) {
      if (parsed.positionals.length > 1) throw new Error(`one ${command.positional} only (quote it if it has spaces)`);
      values[command.positional] = parsed.positionals[0];
    }
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const baseUrl = typeof values.url === 'string' ? values.url.replace(/\/$/, '') : servicePublicUrl(process.env);
  const token =
    command.signedIn === false
      ? undefined
      : operatorToken(typeof values.token === 'string' ? values.token : undefined, baseUrl);
  const send = async <N extends CallName>(name: N, init: RequestInit, query = ''): Promise<CallResult<N>> => {
    const { method, path: apiPath } = callRoutes[name];
    const res = await fetch(`${baseUrl}${apiPath}${query}`, {
      ...init,
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(init.headers as Record<string, string> | undefined),
      },
    });
    const envelope = (await res.json()) as {
      Success: boolean;
      Result?: CallResult<N>;
      Fault?: FaultBody;
    };
    if (!envelope.Success) {
      const fault = envelope.Fault;
      // A file's bad rows (CsvRowsInvalid), one a line under the fault.
      const rows = fault ? csvRowsOf(fault).map((row) => `\n  ${row}`) : [];
      throw new Error(`${fault?.ExceptionName}: ${fault?.ExceptionUserText}${rows.join('')}`);
    }
    return envelope.Result as CallResult<N>;
  };
  const api = (async (name, input, headers) => {
    const { method } = callRoutes[name];
    const query = method === 'GET' && input ? `?${new URLSearchParams(input as Record<string, string>)}` : '';
    const body = method === 'POST' ? (input ?? {}) : undefined;
    return send(
      name,
      {
        headers: { ...headers, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      },
      query,
    );
  }) as AdminApi;
  api.form = (name, form) => send(name, { body: form });
  await command.run(values, api, { baseUrl });
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
