import { zodResolver } from '@hookform/resolvers/zod';
import { messages, passwordSchema } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { Navigate, useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { PasswordField } from '../../../components/password-field';
import { notify } from '../../../lib/notifications';
import { checkRepeatedPassword } from '../../../lib/password-rules';
import { updateSignedInUser, useSessionUser } from '../../../lib/session';
import { useChangePassword } from '../api/change-password';
import { newPasswordFaultText } from '../lib/password-fault';
import { CHANGE_PASSWORD_HASH } from './profile-screen';

const setPasswordSchema = z
  .object({ password: passwordSchema, repeatPassword: passwordSchema })
  .superRefine(checkRepeatedPassword);

/** A first password for a social-only account; with one already, change it on the profile. */
export function SetPasswordScreen() {
  const user = useSessionUser();
  const navigate = useNavigate();
  const changePassword = useChangePassword();
  const form = useForm<z.input<typeof setPasswordSchema>, unknown, z.output<typeof setPasswordSchema>>({
    resolver: zodResolver(setPasswordSchema),
    defaultValues: { password: '', repeatPassword: '' },
  });
  const errors = form.formState.errors;

  if (user?.HasPassword && !changePassword.isSuccess) {
    return <Navigate to={`/profile${CHANGE_PASSWORD_HASH}`} replace />;
  }

  const submit = form.handleSubmit(({ password }) =>
    changePassword.mutate(
      { oldPassword: '', newPassword: password },
      {
        onSuccess: () => {
          updateSignedInUser({ HasPassword: true });
          notify('success', messages.passwordSaved);
          navigate('/profile', { replace: true });
        },
      },
    ),
  );

  return (
    <Page heading={profileText.setPasswordHeading}>
      <div className="card">
        <p>{profileText.setPasswordIntro}</p>
        <form className="form" noValidate onSubmit={submit}>
          <PasswordField
            label={text.newPassword}
            autoComplete="new-password"
            hint={messages.passwordHint}
            error={errors.password?.message}
            {...form.register('password')}
          />
          <PasswordField
            label={text.repeatNewPassword}
            autoComplete="new-password"
            error={errors.repeatPassword?.message}
            {...form.register('repeatPassword')}
          />
          {changePassword.isError && (
            <FormMessage tone="error">{newPasswordFaultText(changePassword.error)}</FormMessage>
          )}
          <Button type="submit" isBusy={changePassword.isPending} disabled={changePassword.isPending}>
            {text.savePassword}
          </Button>
        </form>
      </div>
    </Page>
  );
}
