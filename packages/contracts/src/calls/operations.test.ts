import { describe, expect, it } from 'vitest';
import {
  type CallName,
  callBodies,
  callReplies,
  callResults,
  callRoutes,
  operationAt,
  SIGN_IN_CALLS,
} from './operations';

const names = Object.keys(callResults) as CallName[];

describe('the call registry (docs/api.md, Typed results)', () => {
  it('gives every call one route of its own, found again by method and path', () => {
    const seen = new Set<string>();
    for (const name of names) {
      const { method, path } = callRoutes[name];
      const key = `${method} ${path}`;
      expect(seen.has(key), key).toBe(false);
      seen.add(key);
      expect(operationAt(method, path)?.name).toBe(name);
    }
  });

  it('answers each call with its envelope and the Fault envelope for 4xx and 5xx', () => {
    for (const name of names) {
      const replies = callReplies[name] as Record<string, { safeParse(v: unknown): { success: boolean } }>;
      const status = name === 'register' ? '201' : '200';
      expect(Object.keys(replies).sort(), name).toEqual([status, '4xx', '5xx'].sort());
      const fault = {
        Success: false,
        Fault: {
          ExceptionName: 'KeyNotFound',
          ExceptionType: 20,
          ExceptionCode: 404,
          ExceptionUserText: 'x',
          ExceptionVariables: [],
        },
      };
      expect(replies['4xx']?.safeParse(fault).success).toBe(true);
    }
  });

  it('carries Token beside Result only for the sign-in calls', () => {
    const user = { Id: 'u', Email: 'a@example.com', EmailVerified: true, HasPassword: true, Profile: null };
    for (const name of SIGN_IN_CALLS) {
      const parsed = (callReplies[name] as unknown as Record<string, { parse(v: unknown): unknown }>)['200']?.parse({
        Success: true,
        Token: 't',
        Result: { User: user },
      });
      expect(parsed, name).toEqual({ Success: true, Token: 't', Result: { User: user } });
    }
    const other = (callReplies.GetOrUpdateProfile as unknown as Record<string, { parse(v: unknown): unknown }>)['200'];
    expect(other?.parse({ Success: true, Token: 't', Result: user })).toEqual({ Success: true, Result: user });
  });

  it('has a body schema for every POST call of the portal and the apps', () => {
    for (const name of Object.keys(callBodies)) expect(callRoutes[name as CallName]?.method, name).toBe('POST');
  });
});
