import {
  type CallName,
  type CallResult,
  type callRoutes,
  type FaultBody,
  faults,
  isFaultName,
  type User,
} from '@soundid/contracts';
import { vi } from 'vitest';

export interface RecordedCall {
  path: string;
  method: string;
  headers: Headers;
  body: Record<string, unknown>;
}

type FaultAnswer = { Success: false; Fault: FaultBody };
/** A success answer with its Result, or a Fault (docs/api.md, Typed results). */
type Answer<R = unknown> = { Success: true; Result: R; Token?: string } | FaultAnswer;
type Handler<R = unknown> = (call: RecordedCall) => Answer<R> | Promise<Answer<R>>;

/** Answers one call after the other; the last one repeats. */
export function inSequence<R>(...answers: Answer<R>[]): Handler<R> {
  let index = 0;
  return () => answers[Math.min(index++, answers.length - 1)] as Answer<R>;
}

export function signedIn(user: User): Answer<{ User: User }> {
  return { Success: true, Result: { User: user }, Token: 'session-token' };
}

/** A success answer; without a Result, the `{}` of the calls that answer nothing more. */
export function ok(): Answer<Record<string, never>>;
export function ok<R>(Result: R): Answer<R>;
export function ok(Result: unknown = {}): Answer {
  return { Success: true, Result };
}

/**
 * A Fault as the service sends it: ExceptionUserText is the catalogue's message (apps/api's
 * lib/fault.ts), which the SPA shows for every fault it does not know by name (fault-table.ts);
 * a name outside the catalogue gets a text of its own.
 */
export function fault(ExceptionName: string, options: Partial<FaultBody> = {}): FaultAnswer {
  return {
    Success: false,
    Fault: {
      ExceptionName,
      ExceptionType: 20,
      ExceptionCode: 400,
      ExceptionUserText: isFaultName(ExceptionName)
        ? faults[ExceptionName].message
        : `${ExceptionName} from the server`,
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

type CallPath<N extends CallName> = (typeof callRoutes)[N]['path'];
/** What a call's mock may answer: only its own result's shape, or a Fault. */
type MockOf<N extends CallName> = Answer<CallResult<N>> | Handler<CallResult<N>>;
/**
 * Mocks by the call's path ('/api/voiceai/GetProducts'), by an account call's path without
 * '/api/accounts/' ('LoginByEmail', 'Campaign/ClaimAdam60Day'), or by an action button's URL
 * (InvokeAction's result): each accepts only the result of the call it answers, or a Fault.
 */
export type MockHandlers = {
  [N in CallName as CallPath<N> extends `/api/accounts/${infer Short}` ? Short : never]?: MockOf<N>;
} & {
  [N in CallName as CallPath<N>]?: MockOf<N>;
} & { [url: `/api/actions/${string}`]: MockOf<'InvokeAction'> };

/**
 * Stubs fetch with answers (or handlers) by path ('/api/accounts/LoginByEmail' or just 'LoginByEmail').
 * An unhandled path fails the test loudly through a 404 Fault.
 */
export function mockApi(handlers: MockHandlers) {
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
    const byPath = handlers as Record<string, Answer | Handler | undefined>;
    const handler = byPath[path] ?? byPath[path.replace('/api/accounts/', '')];
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
