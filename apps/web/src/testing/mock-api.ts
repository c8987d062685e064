import type { FaultBody, User } from '@soundid/contracts';
import { vi } from 'vitest';

export interface RecordedCall {
  path: string;
  method: string;
  headers: Headers;
  body: Record<string, unknown>;
}

type Answer = { Success: true; Result?: unknown; Token?: string } | { Success: false; Fault: FaultBody };
type Handler = (call: RecordedCall) => Answer | Promise<Answer>;

/** Answers one call after the other; the last one repeats. */
export function inSequence(...answers: Answer[]): Handler {
  let index = 0;
  return () => answers[Math.min(index++, answers.length - 1)] as Answer;
}

export function signedIn(user: User): Answer {
  return { Success: true, Result: { User: user }, Token: 'session-token' };
}

export function ok(Result: unknown = null): Answer {
  return { Success: true, Result };
}

export function fault(ExceptionName: string, options: Partial<FaultBody> = {}): Answer {
  return {
    Success: false,
    Fault: {
      ExceptionName,
      ExceptionType: 20,
      ExceptionCode: 400,
      ExceptionUserText: `${ExceptionName} from the server`,
      ExceptionVariables: [],
      ...options,
    },
  };
}

export const testUser: User = {
  Id: 'u1',
  Email: 'ada@example.com',
  EmailVerified: true,
  HasPassword: true,
  Profile: { AddressLine1: '', City: '', State: '', PostalCode: '', Country: '' },
};

/**
 * Stubs fetch with answers (or handlers) by path ('/api/accounts/LoginByEmail' or just 'LoginByEmail').
 * An unhandled path fails the test loudly through a 404 Fault.
 */
export function mockApi(handlers: Record<string, Answer | Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const path = String(input);
    const call: RecordedCall = {
      path,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : {},
    };
    calls.push(call);
    const handler = handlers[path] ?? handlers[path.replace('/api/accounts/', '')];
    const answer =
      typeof handler === 'function' ? await handler(call) : (handler ?? fault('NotFound', { ExceptionCode: 404 }));
    return new Response(JSON.stringify(answer), { status: answer.Success ? 200 : 400 });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (name: string) => calls.filter((c) => c.path.endsWith(`/${name}`)),
  };
}
