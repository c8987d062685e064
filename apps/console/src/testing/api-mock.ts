import type { CallResult, Operator, OperatorRole } from '@soundid/contracts';
import { vi } from 'vitest';
import type { ConsoleFaultName } from '../lib/api';

/** A call the console made: its method, path, query, headers and JSON body. */
interface SentCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: Headers;
  body: unknown;
}

type Answer =
  | { Result: unknown }
  | { Fault: ConsoleFaultName; status?: number; text?: string; variables?: Record<string, string> };
type Handler = (call: SentCall) => Answer | Promise<Answer>;

/**
 * A stand-in for the operator API: answers by path (`/api/admin/OperatorMe`), records every call.
 * An unanswered path fails the test loudly.
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: SentCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call: SentCall = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body,
    };
    calls.push(call);
    const handler = handlers[url.pathname];
    if (!handler) throw new Error(`No answer for ${call.method} ${url.pathname}`);
    const answer = await handler(call);
    if ('Result' in answer) return Response.json({ Success: true, Result: answer.Result });
    return Response.json(
      {
        Success: false,
        Fault: {
          ExceptionName: answer.Fault,
          ExceptionType: 1,
          ExceptionCode: 1,
          ExceptionUserText: answer.text ?? `${answer.Fault} text`,
          ExceptionVariables: Object.entries(answer.variables ?? {}).map(([Key, Value]) => ({ Key, Value })),
        },
      },
      { status: answer.status ?? 400 },
    );
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    /** The calls made to one path. */
    to: (path: string) => calls.filter((c) => c.path === path),
  };
}

export function operator(roles: OperatorRole[], name = 'Olga Operator'): Operator {
  return {
    Id: '00000000-0000-4000-8000-000000000001',
    Email: 'olga@operators.example.com',
    Name: name,
    Roles: roles,
    Status: 'active',
    CreatedAt: '2026-01-01T00:00:00.000Z',
    LastSignInAt: null,
  };
}

/** OperatorMe's answer for a console session with these roles. */
export const meAnswer = (roles: OperatorRole[]) => () => ({
  Result: {
    Operator: operator(roles),
    Via: 'console',
    Scope: 'write',
    CredentialId: 'session-1',
  } satisfies CallResult<'OperatorMe'>,
});

/** A customer page (AdminUser) with one licence, two devices (one active), a card payment. */
export function customerPage(): CallResult<'AdminUser'> {
  return {
    Id: '10000000-0000-4000-8000-000000000001',
    Email: 'carla@example.com',
    EmailVerified: true,
    HasPassword: true,
    Profile: null,
    CreatedAt: '2026-01-02T10:00:00.000Z',
    ActiveSessions: 1,
    SocialProviders: [],
    SignInLocked: true,
    Keys: [{ Product: 'sid-reference', KeyEnding: 'ABC123', RegisteredAt: '2026-01-03T10:00:00.000Z' }],
    Devices: [],
    SecondFactor: { Totp: false, RecoveryCodesLeft: 0, Passkeys: 0 },
    Sessions: [
      {
        Id: 's1',
        CreatedAt: '2026-01-04T10:00:00.000Z',
        LastSeenAt: '2026-01-04T11:00:00.000Z',
        ExpiresAt: '2026-02-04T10:00:00.000Z',
        Device: 'Firefox on macOS',
      },
    ],
    Licences: [
      {
        Product: 'sid-reference',
        KeyEnding: 'ABC123',
        RegisteredAt: '2026-01-03T10:00:00.000Z',
        Seats: 3,
        DeactivationsUsed: 5,
        DeactivationsAllowed: 5,
        PendingTransfers: [
          {
            KeyEnding: 'ABC123',
            ToEmail: 'bea@example.com',
            CreatedAt: '2026-01-10T10:00:00.000Z',
            ExpiresAt: '2026-01-17T10:00:00.000Z',
          },
        ],
        Devices: [
          {
            Id: '20000000-0000-4000-8000-000000000001',
            Name: 'Studio iMac',
            MachineId: 'machine-1',
            ActivatedAt: '2026-01-05T10:00:00.000Z',
            DeactivatedAt: null,
            DeactivationCause: null,
            LostReport: null,
            LastSeenAt: '2026-01-07T10:00:00.000Z',
            AppVersion: '5.12.1',
            Os: 'macOS 14.5',
          },
          {
            Id: '20000000-0000-4000-8000-000000000002',
            Name: 'Old laptop',
            MachineId: 'machine-2',
            ActivatedAt: '2026-01-05T09:00:00.000Z',
            DeactivatedAt: '2026-01-06T09:00:00.000Z',
            DeactivationCause: 'customer',
            LostReport: null,
            LastSeenAt: null,
            AppVersion: null,
            Os: null,
          },
          {
            Id: '20000000-0000-4000-8000-000000000003',
            Name: 'Stolen MacBook',
            MachineId: 'machine-3',
            ActivatedAt: '2026-01-04T09:00:00.000Z',
            DeactivatedAt: '2026-01-08T09:00:00.000Z',
            DeactivationCause: 'lost',
            LostReport: {
              Reason: 'stolen',
              Note: 'police report 7',
              ReportedAt: '2026-01-08T09:00:00.000Z',
              Standing: true,
            },
            LastSeenAt: '2026-01-07T22:00:00.000Z',
            AppVersion: '5.12.0',
            Os: 'macOS 14.4',
          },
        ],
      },
    ],
    Trials: [],
    TokenBalance: 1200,
    TokenLots: [],
    TokenUsage: [],
    CardPayments: [
      {
        InvoiceTag: 'inv_0000001',
        Item: 'Token pack 1000',
        AmountInCents: 999,
        RefundedInCents: 0,
        Currency: 'usd',
        Status: 'paid',
        CreatedAt: '2026-01-07T10:00:00.000Z',
      },
    ],
    StorefrontOrders: [],
    Mails: [],
    Audit: [],
  };
}
