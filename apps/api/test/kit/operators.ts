import {
  callRoutes,
  OPERATOR_API_TOKEN_MAX_DAYS,
  OPERATOR_ROLES,
  type OperatorRole,
  TOTP_PERIOD_SECONDS,
} from '@soundid/contracts';
import { generateSync } from 'otplib';

/**
 * Operators for tests (ADR 0044), made the way a person makes them: the bootstrap token invites
 * the first admin, each operator accepts the mailed invitation with a password and an
 * authenticator app, signs in with both, and takes a personal API token. Works in process
 * (app.inject) and against a running service (fetch) through the `post` it is given.
 */
export type OperatorPost = (
  path: string,
  body: unknown,
  headers?: Record<string, string>,
) => Promise<{ status: number; json: unknown }>;

export const OPERATOR_TEST_PASSWORD = 'operator test password 1';
/** A kit's tokens are taken anew a day before they would expire. */
const RENEW_AFTER_MS = (OPERATOR_API_TOKEN_MAX_DAYS - 1) * 86_400_000;

interface Envelope {
  Success?: boolean;
  Result?: Record<string, unknown>;
  Fault?: { ExceptionName: string };
}

export class OperatorKit {
  private admin: Promise<string> | undefined;
  private adminSecret = '';
  private adminRenewAt = 0;
  private made = 0;

  constructor(
    private readonly post: OperatorPost,
    private readonly bootstrapToken: string,
    /** The service's clock: the codes are computed for its time. */
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * The first admin's write token (bootstrapped once per kit, i.e. per database); signed in again
   * for a new token when the clock nears the last one's expiry.
   */
  async adminToken(): Promise<string> {
    this.admin ??= (async () => {
      const email = 'first-admin@operators.example.com';
      const invited = await this.call(
        'OperatorBootstrap',
        { email, name: 'First Admin' },
        { authorization: `Bearer ${this.bootstrapToken}` },
      );
      const { token, secret } = await this.activate(email, invited.InvitationUrl as string);
      this.adminSecret = secret;
      this.adminRenewAt = this.now().getTime() + RENEW_AFTER_MS;
      return token;
    })();
    const token = await this.admin;
    if (this.now().getTime() < this.adminRenewAt) return token;
    this.adminRenewAt = this.now().getTime() + RENEW_AFTER_MS;
    this.admin = this.apiToken(await this.signIn('first-admin@operators.example.com', this.adminSecret), 'write');
    return this.admin;
  }

  /** A write API token of a new operator with these roles (every role by default). */
  async tokenFor(roles: readonly OperatorRole[] = OPERATOR_ROLES, name = roles.join('-')): Promise<string> {
    const admin = await this.adminToken();
    const email = `${name}-${++this.made}@operators.example.com`;
    const invited = await this.call(
      'InviteOperator',
      { email, name, roles, reason: 'test operator' },
      { authorization: `Bearer ${admin}` },
    );
    return (await this.activate(email, invited.InvitationUrl as string)).token;
  }

  /** Accepts an invitation, confirms the authenticator, signs in and takes an API token. */
  async activate(
    email: string,
    invitationUrl: string,
    scope: 'read' | 'write' = 'write',
  ): Promise<{ token: string; secret: string }> {
    const invitation = invitationUrl.split('/').pop() as string;
    const accepted = await this.call('AcceptOperatorInvitation', {
      token: invitation,
      password: OPERATOR_TEST_PASSWORD,
    });
    const secret = accepted.TotpSecret as string;
    await this.call('ConfirmOperatorInvitation', { token: invitation, code: this.code(secret) });
    return { token: await this.apiToken(await this.signIn(email, secret), scope), secret };
  }

  /** An API token taken with a session. */
  async apiToken(session: string, scope: 'read' | 'write'): Promise<string> {
    const created = await this.call(
      'CreateOperatorApiToken',
      { name: 'tests', scope, days: OPERATOR_API_TOKEN_MAX_DAYS },
      { authorization: `Bearer ${session}` },
    );
    return created.Token as string;
  }

  /**
   * Signs in with password and code; answers the session token. The code is the next time
   * step's (accepted within the drift tolerance), as the current one was used to confirm.
   */
  async signIn(email: string, secret: string, password = OPERATOR_TEST_PASSWORD): Promise<string> {
    const { Challenge } = await this.call('OperatorLogin', { email, password });
    const signedIn = await this.call('OperatorLoginSecondFactor', {
      challenge: Challenge,
      code: this.code(secret, 1),
      answer: 'token',
    });
    return signedIn.Token as string;
  }

  code(secret: string, steps = 0): string {
    return generateSync({ secret, epoch: Math.floor(this.now().getTime() / 1000) + steps * TOTP_PERIOD_SECONDS });
  }

  private async call(
    name: keyof typeof callRoutes,
    body: unknown,
    headers: Record<string, string> = {},
  ): Promise<Record<string, unknown>> {
    const { status, json } = await this.post(callRoutes[name].path, body, headers);
    const answer = json as Envelope;
    if (!answer.Success) throw new Error(`${name}: ${status} ${answer.Fault?.ExceptionName ?? JSON.stringify(json)}`);
    return answer.Result as Record<string, unknown>;
  }
}

/** A kit for a running service (fetch). */
export function operatorKitFor(base: string, bootstrapToken: string): OperatorKit {
  return new OperatorKit(async (path, body, headers = {}) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });
    return { status: res.status, json: await res.json() };
  }, bootstrapToken);
}
