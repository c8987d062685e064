import { text } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Button } from '../../../components/button';

/**
 * "Sign in with a passkey" below the login form (ADR 0039). Only this button is on /login:
 * @simplewebauthn/browser and the sign-in (which shows its own faults) load on click, so the
 * page stays in its budget (ADR 0020).
 */
export function PasskeyButton() {
  const [isBusy, setBusy] = useState(false);
  const signIn = () => {
    setBusy(true);
    import('../passkeys/passkey-sign-in').then((module) => module.signInWithPasskey()).finally(() => setBusy(false));
  };
  return (
    <Button variant="secondary" className="passkey-button" isBusy={isBusy} disabled={isBusy} onClick={signIn}>
      {text.passkeySignIn}
    </Button>
  );
}
