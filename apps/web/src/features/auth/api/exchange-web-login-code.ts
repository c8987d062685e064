import { type FaultName, type User, WEB_LOGIN_SWITCH_VARIABLES } from '@soundid/contracts';
import { postAccountCall } from '../../../lib/api-client';
import { isApiError, isFault, showApiError } from '../../../lib/api-errors';
import { reloadPage } from '../../../lib/browser-location';
import { setSignedInUser } from '../../../lib/session';
import { type PendingSwitch, pendingSwitchStore } from '../session-switch-store';
import { loadSession } from './login-by-token';

/** The faults of a link that cannot sign in (unknown, used, expired): said on the page, not silently dropped. */
const LINK_FAULTS: FaultName[] = ['WebLoginCodeInvalid', 'WebLoginCodeUsed', 'WebLoginCodeExpired'];

function exchangeWebLoginCode(code: string, confirmSwitch?: boolean): Promise<User> {
  return postAccountCall('ExchangeWebLoginCode', {
    code,
    ...(confirmSwitch ? { confirmSwitch } : {}),
    silent: true,
  }).then(({ Result }) => Result.User);
}

/**
 * Start-up with a query token (docs/requirements.md §2): the token is a desktop app's one-time code, exchanged
 * for a session by the service (ADR 0029). A session token someone put into a link is not one:
 * it signs nobody in. With another customer signed in here the customer is asked first; until
 * then, and after any failure, whoever is signed in stays signed in.
 */
export async function startWithLoginCode(code: string): Promise<void> {
  try {
    setSignedInUser(await exchangeWebLoginCode(code));
    return;
  } catch (error) {
    if (isFault(error, 'WebLoginSwitchUnconfirmed')) {
      pendingSwitchStore.set({
        code,
        currentEmail: error.variable(WEB_LOGIN_SWITCH_VARIABLES.current) ?? '',
        linkEmail: error.variable(WEB_LOGIN_SWITCH_VARIABLES.link) ?? '',
      });
    } else if (isFault(error, ...LINK_FAULTS)) {
      showApiError(error.fault);
    }
  }
  await loadSession();
}

/**
 * The customer chose the link's account: the service ends the session live here and signs the
 * link's customer in; the page loads again so that nothing of the other account stays on screen.
 */
export async function acceptSwitch(pending: PendingSwitch): Promise<void> {
  try {
    await exchangeWebLoginCode(pending.code, true);
    pendingSwitchStore.set(null);
    reloadPage();
  } catch (error) {
    pendingSwitchStore.set(null);
    if (isApiError(error)) showApiError(error.fault);
  }
}

/** The customer stays who they are; the link's code is left to expire. */
export function declineSwitch(): void {
  pendingSwitchStore.set(null);
}
