import { ABUSE_LIMIT_WINDOW_MINUTES } from '@soundid/contracts';
import { Fault } from '../../lib/fault';
import { networkOf } from '../../lib/ip-networks';
import type { AttemptLimiter, LimitRule } from './attempt-limits';

/** How many sign-ups and mails an hour allows (config: SIGNUP_LIMIT_*, MAIL_LIMIT_PER_MAILBOX). */
export interface AbuseLimitSettings {
  signUpsPerClient: number;
  signUpsTotal: number;
  mailsPerMailbox: number;
}

/** The one key of the overall sign-up counter. */
const ALL_CLIENTS = '*';

/**
 * The mailbox an address delivers to, as the mail counter's key (ADR 0031): lower case (the
 * service keeps addresses so), the `+tag` of a sub-address dropped (`ann+1@example.com` is
 * `ann@example.com`), and at Gmail, which ignores dots and answers to googlemail.com too, the
 * dots dropped and the domain gmail.com. Other providers' dots are part of the name.
 */
export function mailboxOf(address: string): string {
  const email = address.trim().toLowerCase();
  const at = email.lastIndexOf('@');
  if (at < 0) return email;
  let local = email.slice(0, at);
  let domain = email.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (domain === 'googlemail.com') domain = 'gmail.com';
  if (domain === 'gmail.com') local = local.replaceAll('.', '');
  return `${local}@${domain}`;
}

/**
 * The client an address stands for, as the sign-up counter's key: an IPv4 address (also when
 * written IPv4-mapped, ::ffff:a.b.c.d), or the /64 network of an IPv6 address, since one
 * subscriber is given a whole /64 and could otherwise count as 2^64 clients.
 */
export function clientOf(ip: string | undefined): string {
  return networkOf(ip, { v4Octets: 4, v6Groups: 4 });
}

/**
 * Sign-ups per client and overall, and mails per mailbox, counted in the database so that every
 * replica shares them (ASVS 2.4.1). Each check counts the use at once (AttemptLimiter.take): a
 * refused use changes nothing else and sends nothing.
 */
export class AbuseLimits {
  private readonly perClient: LimitRule;
  private readonly total: LimitRule;
  private readonly perMailbox: LimitRule;

  constructor(
    private readonly limiter: AttemptLimiter,
    settings: AbuseLimitSettings,
  ) {
    const windowMinutes = ABUSE_LIMIT_WINDOW_MINUTES;
    this.perClient = { scope: 'sign-up', max: settings.signUpsPerClient, windowMinutes };
    this.total = { scope: 'sign-up-total', max: settings.signUpsTotal, windowMinutes };
    this.perMailbox = { scope: 'mailbox', max: settings.mailsPerMailbox, windowMinutes };
  }

  /**
   * Counts a sign-up of a client: its own allowance first, so that one client's flood ends
   * there and cannot use up everyone's allowance; then the overall one.
   */
  async signUp(clientIp: string | undefined): Promise<void> {
    if (!(await this.limiter.take(this.perClient, clientOf(clientIp)))) throw new Fault('AttemptOverLimitSignUp');
    if (!(await this.limiter.take(this.total, ALL_CLIENTS))) throw new Fault('AttemptOverLimitSignUpTotal');
  }

  /** Counts a mail to the mailbox of an address, before anything of the mail is made. */
  async mailTo(address: string): Promise<void> {
    if (!(await this.limiter.take(this.perMailbox, mailboxOf(address)))) throw new Fault('AttemptOverLimitMailbox');
  }
}
