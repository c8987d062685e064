import { DEVICE_COOKIE_DAYS, DEVICE_COOKIE_PLAIN, DEVICE_COOKIE_SECURE } from '@soundid/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Random } from '../../lib/clock';
import { networkOf } from '../../lib/ip-networks';
import { newOpaqueToken } from '../../lib/secrets';
import { type DeviceSighting, deviceLabel } from './device-sighting';
import { isBrowserRequest } from './session-cookie';

/** An app's network: its IPv4 /24 or IPv6 /48 (ADR 0041). */
const APP_NETWORK = { v4Octets: 3, v6Groups: 3 };

/** A device-cookie id as the service makes them: 32 random bytes, base64url. */
const COOKIE_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The browser's device cookie: first-party, HttpOnly, SameSite=Lax, 400 days, a random id
 * (`__Host-soundid_device` over https). It only tells this service that the browser signed in
 * here before; it is sent to no one else and names nobody.
 */
export class DeviceCookie {
  readonly name: string;
  private readonly secure: boolean;

  constructor(
    publicUrl: string,
    private readonly random: Random,
  ) {
    this.secure = publicUrl.startsWith('https://');
    this.name = this.secure ? DEVICE_COOKIE_SECURE : DEVICE_COOKIE_PLAIN;
  }

  /**
   * The device a sign-in comes from: a browser by its cookie (a new id when it has none or a
   * malformed one), anything else by its user-agent family and network.
   */
  sight(request: FastifyRequest): DeviceSighting {
    if (!isBrowserRequest(request)) return appSighting(request);
    const held = request.cookies[this.name];
    const cookie = held && COOKIE_ID.test(held) ? held : newOpaqueToken(this.random);
    return { kind: 'browser', identity: cookie, label: labelOf(request), cookie };
  }

  /** Sets (or renews for another 400 days) the browser's device cookie. */
  set(reply: FastifyReply, sighting: DeviceSighting | undefined): void {
    if (!sighting?.cookie) return;
    reply.setCookie(this.name, sighting.cookie, {
      httpOnly: true,
      secure: this.secure,
      sameSite: 'lax',
      path: '/',
      maxAge: DEVICE_COOKIE_DAYS * 86_400,
    });
  }
}

/** A desktop app (or any client without Fetch Metadata): its user-agent family on its network. */
export function appSighting(request: FastifyRequest): DeviceSighting {
  const label = labelOf(request);
  return { kind: 'app', identity: `${label}\n${networkOf(request.ip, APP_NETWORK)}`, label };
}

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return (Array.isArray(value) ? value[0] : value)?.trim() || undefined;
};

const labelOf = (request: FastifyRequest) =>
  deviceLabel(header(request, 'user-agent') ?? '', header(request, 'software'), isBrowserRequest(request));
