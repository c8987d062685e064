import { type CallName, type CallResult, callPathOf, type PathCall } from '@soundid/contracts';
import { type ApiSuccess, type CallInput, type CallOptions, callAt } from './api-client';

/**
 * A call by its name (docs/api.md, Typed results): the path, the method, the body's type and
 * the result's type all come from packages/contracts, so no caller names a result type. The
 * route is looked up in routes.ts, which carries no schema; the pages' first load does without
 * even that table (callAt, the /login budget, ADR 0020).
 */
export function call<N extends CallName & PathCall>(
  name: N,
  input: CallInput<N>,
  options: CallOptions = {},
): Promise<ApiSuccess<CallResult<N>>> {
  return callAt(name, callPathOf(name), input, options);
}
