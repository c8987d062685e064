import {
  type CallBody,
  type CallBodyName,
  type CallName,
  type CallResult,
  callPathOf,
  type FaultBody,
  type FaultName,
  type PathCall,
  type TableFaultName,
} from '@soundid/contracts';

/**
 * The console's client of the operator API (docs/api.md, Operators). The session is the
 * HttpOnly cookie the service scoped to `Path=/api/admin`; the service counts it only with the
 * `Software` header (ADR 0044), which every request here carries. The console never holds a token.
 */
export const SOFTWARE_HEADER = 'MySoundID-Console/1.0';

/**
 * A fault's name as the console compares it: the service's (`faults`, `faultTable`), or the one
 * the console makes when the service cannot be reached. Typed, so a misspelt name fails typecheck.
 */
export type ConsoleFaultName = FaultName | TableFaultName | 'NetworkError';

/** A call's refusal or failure, as the service sent it: its text is shown as it came. */
export class ApiFault extends Error {
  constructor(
    readonly fault: FaultBody,
    readonly status: number,
  ) {
    super(fault.ExceptionUserText);
    this.name = 'ApiFault';
  }

  /** Whether the service answered one of these faults. */
  is(...names: readonly ConsoleFaultName[]): boolean {
    return (names as readonly string[]).includes(this.fault.ExceptionName);
  }
}

/** The fault the service answers when the console session is missing, idle too long or ended. */
export const SESSION_FAULT: FaultName = 'AdminTokenInvalid';

type Listener = (fault: ApiFault) => void;
const sessionListeners = new Set<Listener>();

/** Called with every session fault (the app returns to sign-in). */
export function onSessionFault(listener: Listener): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

type ConsoleCall = CallName & PathCall;
type Input<N extends ConsoleCall> = N extends CallBodyName ? CallBody<N> : Record<string, unknown>;
type Query = Record<string, string | number | undefined>;

/** A POST call with its JSON body (the contracts' body type). */
export function post<N extends ConsoleCall>(name: N, body: Input<N>): Promise<CallResult<N>> {
  return send<CallResult<N>>(callPathOf(name).path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** A GET call with its query string. */
export function get<N extends ConsoleCall>(name: N, query: Query = {}): Promise<CallResult<N>> {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') search.set(key, `${value}`);
  const path = callPathOf(name).path;
  return send<CallResult<N>>(search.size ? `${path}?${search}` : path, { method: 'GET' });
}

/** A multipart POST (a release upload): the form's fields, then its file, in the order given. */
export function postForm<N extends ConsoleCall>(name: N, form: FormData): Promise<CallResult<N>> {
  return send<CallResult<N>>(callPathOf(name).path, { method: 'POST', body: form });
}

async function send<T>(path: string, init: RequestInit): Promise<T> {
  const headers = new Headers(init.headers);
  headers.set('Accept', 'application/json');
  headers.set('Software', SOFTWARE_HEADER);
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers, credentials: 'same-origin' });
  } catch {
    throw new ApiFault(
      madeUp('NetworkError', 'The service could not be reached. Check the connection and try again.'),
      0,
    );
  }
  let envelope: { Success?: boolean; Result?: unknown; Fault?: FaultBody } | undefined;
  try {
    envelope = (await response.json()) as typeof envelope;
  } catch {
    envelope = undefined;
  }
  // The service serialises every result through its contract schema (docs/api.md, Typed results).
  if (envelope?.Success === true) return envelope.Result as T;
  const fault = new ApiFault(
    envelope?.Fault ?? madeUp('Unknown', `The service answered ${response.status} without a message.`),
    response.status,
  );
  if (fault.is(SESSION_FAULT)) for (const listener of sessionListeners) listener(fault);
  throw fault;
}

const madeUp = (name: ConsoleFaultName, text: string): FaultBody => ({
  ExceptionName: name,
  ExceptionType: 0,
  ExceptionCode: 0,
  ExceptionUserText: text,
  ExceptionVariables: [],
});
