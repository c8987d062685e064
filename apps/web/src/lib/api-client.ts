import {
  type AccountCallName,
  type CallBody,
  type CallBodyName,
  type CallName,
  type CallPath,
  type CallResult,
  ExceptionType,
  type FaultBody,
  faultTable,
  type PathCall,
  SESSION_CLEARING_FAULTS,
} from '@soundid/contracts';
import {
  BRANDING_HEADER,
  DEVELOPMENT_ENV_COOKIE,
  PAYMENTS_ENV_COOKIE,
  SOFTWARE_HEADER,
  TRACKING_COOKIE,
} from '../config/client';
import { ApiError, clearApiErrorsOf, isLocallyHandledFault, showApiError } from './api-errors';
import { reloadPage } from './browser-location';
import { readCookie } from './cookies';
import { loadSavedHeaders } from './saved-headers';
import { isSignedIn, setAnonymous } from './session';

export interface ApiSuccess<T> {
  Result: T;
  /** Login calls also return the session token; the SPA ignores it (the cookie carries it). */
  Token?: string;
}

/**
 * Where a call that answered StepUpRequired asks for a proof of presence (ADR 0040): the app's
 * step-up host (app/step-up.tsx) sets `ask` while someone is signed in; the call is sent once
 * more if it answers true. Here, not in a module of its own: the first load's budget (ADR 0020).
 */
export const stepUpSlot: { ask?: ((fault: FaultBody) => Promise<boolean>) | undefined } = {};

/** How long a call waits for the step-up host to load before failing with the bare fault. */
export const STEP_UP_HOST_WAIT_MS = 5000;

/**
 * The step-up host loads after the page starts (ADR 0043): a call that a customer quick off the
 * mark makes before it is there waits for it a moment, instead of failing with the bare fault.
 */
async function stepUpAsker(): Promise<typeof stepUpSlot.ask> {
  // The host runs only while someone is signed in: signed out, there is nothing to wait for.
  for (let waited = 0; !stepUpSlot.ask && isSignedIn() && waited < STEP_UP_HOST_WAIT_MS; waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return stepUpSlot.ask;
}

/** The SPA never sends AuthToken: its session is the HttpOnly cookie alone (ADR 0029). */
export interface CallOptions {
  /** Payment calls forward the PaymentsEnv cookie. */
  paymentsEnv?: boolean;
}

type Body = Record<string, unknown> & { silent?: boolean };

/** What a call sends: its body from packages/contracts, or for a GET call only the `silent` flag. */
export type CallInput<N extends CallName> = N extends CallBodyName ? CallBody<N> : { silent?: boolean };

/**
 * A call whose route the caller names, checked against packages/contracts' at compile time
 * (routes.ts): for the calls of the first load, which then carries no route table (the /login
 * budget, ADR 0020). Everything else uses `call` (api-call.ts), which looks the route up.
 */
export function callAt<N extends CallName & PathCall>(
  _name: N,
  route: CallPath<N>,
  input: CallInput<N>,
  options: CallOptions = {},
): Promise<ApiSuccess<CallResult<N>>> {
  const body = input as Body;
  return send<CallResult<N>>(
    route.method,
    route.path,
    route.method === 'POST' ? body : body.silent ? { silent: true } : undefined,
    options,
  );
}

/** An account call: `POST /api/accounts/<name>`. */
export function postAccountCall<N extends AccountCallName>(
  name: N,
  body: CallInput<N>,
  options?: CallOptions,
): Promise<ApiSuccess<CallResult<N>>> {
  return send<CallResult<N>>('POST', `/api/accounts/${name}`, body as Body, options ?? {});
}

/**
 * An action button's GET URL (under /api/actions/, put in the button by the service): its
 * path is the button's, its result InvokeAction's.
 */
export function invokeActionUrl(
  url: string,
  options: CallOptions & { silent?: boolean } = {},
): Promise<ApiSuccess<CallResult<'InvokeAction'>>> {
  return send('GET', url, options.silent ? { silent: true } : undefined, options);
}

/** A POST to a path that is no call of packages/contracts (tests of the client itself): the result is unknown. */
export function apiPost(path: string, body: Body = {}, options: CallOptions = {}): Promise<ApiSuccess<unknown>> {
  return send('POST', path, body, options);
}

export function apiGet(path: string, options: CallOptions & { silent?: boolean } = {}): Promise<ApiSuccess<unknown>> {
  return send('GET', path, options.silent ? { silent: true } : undefined, options);
}

function buildHeaders(method: 'GET' | 'POST', options: CallOptions): Headers {
  const headers = new Headers(loadSavedHeaders());
  headers.set('Accept', 'application/json');
  headers.set('Branding', BRANDING_HEADER);
  // The service accepts the session cookie only together with this header (anti-forgery).
  headers.set('Software', SOFTWARE_HEADER);
  const developmentEnv = readCookie(DEVELOPMENT_ENV_COOKIE);
  if (developmentEnv) headers.set('DevelopmentEnv', developmentEnv);
  if (method === 'POST') {
    headers.set('Content-Type', 'application/json');
    const uti = readCookie(TRACKING_COOKIE);
    if (uti) headers.set('UTI', uti);
  }
  if (options.paymentsEnv) {
    const paymentsEnv = readCookie(PAYMENTS_ENV_COOKIE);
    if (paymentsEnv) headers.set('PaymentsEnv', paymentsEnv);
  }
  return headers;
}

async function send<T>(
  method: 'GET' | 'POST',
  path: string,
  body: Body | undefined,
  options: CallOptions,
  proven = false,
): Promise<ApiSuccess<T>> {
  const silent = body?.silent === true;
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: buildHeaders(method, options),
      credentials: 'same-origin',
      ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
    });
  } catch {
    throw fail(madeUpFault('Network Error', 0), 0, silent, path);
  }

  const envelope = await readEnvelope(response);
  if (envelope?.Success === true) {
    clearApiErrorsOf(path);
    // The one place a result's type is taken on trust: the service serialises it through the
    // call's result schema (docs/api.md, Typed results).
    return { Result: envelope.Result as T, ...(typeof envelope.Token === 'string' ? { Token: envelope.Token } : {}) };
  }
  const fault = envelope && isFaultBody(envelope.Fault) ? envelope.Fault : madeUpFault('Unknown', response.status);
  // A proof of presence asked for in place, then the same call once more (ADR 0040).
  if (fault.ExceptionName === 'StepUpRequired' && !proven && (await (await stepUpAsker())?.(fault))) {
    return send(method, path, body, options, true);
  }
  throw fail(fault, response.status, silent, path);
}

interface RawEnvelope {
  Success?: unknown;
  Result?: unknown;
  Token?: unknown;
  Fault?: unknown;
}

async function readEnvelope(response: Response): Promise<RawEnvelope | undefined> {
  try {
    const parsed: unknown = await response.json();
    return parsed && typeof parsed === 'object' ? (parsed as RawEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

function isFaultBody(value: unknown): value is FaultBody {
  if (!value || typeof value !== 'object') return false;
  const fault = value as Partial<FaultBody>;
  return typeof fault.ExceptionName === 'string' && typeof fault.ExceptionType === 'number';
}

function madeUpFault(name: 'Network Error' | 'Unknown', status: number): FaultBody {
  return {
    ExceptionName: name,
    ExceptionType: faultTable[name].type,
    ExceptionCode: status,
    ExceptionUserText: faultTable[name].message,
    ExceptionVariables: [],
  };
}

function isSessionFault(fault: FaultBody): boolean {
  return (
    fault.ExceptionType === ExceptionType.Session ||
    (SESSION_CLEARING_FAULTS as readonly string[]).includes(fault.ExceptionName)
  );
}

/**
 * The generic handler (docs/requirements.md §8). A session fault drops the user; the service has already
 * cleared the cookie. A signed-in page reloads so that nothing of the old session stays on
 * screen; while the user is still unknown or anonymous there is nothing to reload (and a
 * reload would loop on the start-up LoginByToken call).
 */
function fail(fault: FaultBody, status: number, silent: boolean, path: string): ApiError {
  if (isSessionFault(fault)) {
    const wasSignedIn = isSignedIn();
    setAnonymous();
    if (wasSignedIn) reloadPage();
  } else if (!silent && !isLocallyHandledFault(fault.ExceptionName)) {
    showApiError(fault, path);
  }
  return new ApiError(
    {
      ...fault,
      ExceptionVariables: Array.isArray(fault.ExceptionVariables) ? fault.ExceptionVariables : [],
    },
    status,
  );
}
