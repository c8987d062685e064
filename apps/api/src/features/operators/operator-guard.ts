import {
  CONSOLE_COOKIE_PATH,
  CONSOLE_COOKIE_PLAIN,
  CONSOLE_COOKIE_SECURE,
  OPERATOR_READ_CALLS,
  type OperatorCallName,
  operatorCallRoles,
} from '@soundid/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Fault } from '../../lib/fault';
import { constantTimeEqual } from '../../lib/secrets';
import type { AuditTrail, RequestOrigin } from './audit-trail';
import type { OperatorAccounts, SignedInOperator } from './operator-accounts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The operator an operator call was admitted for (set by OperatorGuard). */
    operator?: SignedInOperator;
  }
}

/**
 * The console's session cookie (ADR 0044): HttpOnly, SameSite=Strict, scoped to the operator
 * API's path, `__Secure-` over https; it counts only with the Software header, as the portal's does.
 */
export class ConsoleCookie {
  readonly name: string;
  private readonly secure: boolean;

  constructor(publicUrl: string) {
    this.secure = publicUrl.startsWith('https://');
    this.name = this.secure ? CONSOLE_COOKIE_SECURE : CONSOLE_COOKIE_PLAIN;
  }

  set(reply: FastifyReply, token: string): void {
    // A session cookie: the console session's own timeouts end it on the server.
    reply.setCookie(this.name, token, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'strict',
      path: CONSOLE_COOKIE_PATH,
    });
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.name, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'strict',
      path: CONSOLE_COOKIE_PATH,
    });
  }

  read(request: FastifyRequest): string | undefined {
    return request.cookies[this.name] || undefined;
  }
}

export const originOf = (request: FastifyRequest): RequestOrigin => ({ requestId: request.id, ip: request.ip });

/**
 * Every operator route's gate (ADR 0044): the operator is signed in (an API token or a session
 * token as Bearer, or the console's cookie with the Software header), one of their roles admits the call
 * (`operatorCallRoles`, deny by default), and a read-only token only reads. A refusal for the
 * role is audited. Routes name their call: `onRequest: guard.for('AdminGrantTokens')`.
 */
export class OperatorGuard {
  /** The calls a route was guarded for: a test compares them with every operator call. */
  readonly guarded = new Set<OperatorCallName>();

  constructor(
    private readonly deps: {
      accounts: OperatorAccounts;
      audit: AuditTrail;
      cookie: ConsoleCookie;
      bootstrapToken: string;
    },
  ) {}

  for(call: OperatorCallName) {
    this.guarded.add(call);
    const admitted: readonly string[] = operatorCallRoles[call];
    const writes = !OPERATOR_READ_CALLS.includes(call);
    return async (request: FastifyRequest) => {
      const operator = await this.authenticate(request);
      const refused = !operator.roles.some((role) => admitted.includes(role))
        ? 'OperatorForbidden'
        : writes && operator.scope === 'read'
          ? 'OperatorTokenReadOnly'
          : undefined;
      if (refused) {
        await this.deps.audit.record({
          actor: operator,
          action: call,
          outcome: 'denied',
          reason: refused,
          origin: originOf(request),
        });
        throw new Fault(refused);
      }
      request.operator = operator;
    };
  }

  /** The bootstrap call's gate: the bootstrap token (ADMIN_TOKEN) and nothing else. */
  bootstrap() {
    return async (request: FastifyRequest) => {
      const bearer = bearerOf(request);
      if (!bearer || !constantTimeEqual(bearer, this.deps.bootstrapToken)) throw new Fault('AdminTokenInvalid');
    };
  }

  /** The signed-in operator of a request, or a Fault. */
  async authenticate(request: FastifyRequest): Promise<SignedInOperator> {
    const bearer = bearerOf(request);
    if (bearer) {
      if (constantTimeEqual(bearer, this.deps.bootstrapToken)) {
        throw new Fault((await this.deps.accounts.bootstrapOpen()) ? 'BootstrapTokenOnly' : 'BootstrapClosed');
      }
      const operator = await this.deps.accounts.authenticate(bearer, 'bearer');
      if (!operator) throw new Fault('AdminTokenInvalid');
      return operator;
    }
    const cookie = this.deps.cookie.read(request);
    if (!cookie) throw new Fault('AdminTokenInvalid');
    if (!request.headers.software) throw new Fault('SoftwareHeaderMissing');
    const operator = await this.deps.accounts.authenticate(cookie, 'cookie');
    if (!operator) throw new Fault('AdminTokenInvalid');
    return operator;
  }
}

function bearerOf(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization ?? '';
  return header.startsWith('Bearer ') ? header.slice(7) || undefined : undefined;
}

/** The operator an admitted request carries (the guard ran before the handler). */
export function operatorOf(request: FastifyRequest): SignedInOperator {
  if (!request.operator) throw new Error('operator route without OperatorGuard');
  return request.operator;
}
