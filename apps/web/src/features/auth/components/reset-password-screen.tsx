import { useActionToken } from '../use-action-token';
import { ResetRequestForm } from './reset-request-form';
import { SetNewPasswordForm } from './set-new-password-form';

/** Without a token: ask for a reset mail. With one (path or query): choose the new password. */
export function ResetPasswordScreen() {
  const token = useActionToken();
  return token ? <SetNewPasswordForm token={token} /> : <ResetRequestForm />;
}
