import { zodResolver } from '@hookform/resolvers/zod';
import { messages, passwordSchema } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { Page } from '../../../components/page';
import { PasswordField } from '../../../components/password-field';
import { isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { checkRepeatedPassword } from '../../../lib/password-rules';
import { usePasswordReset } from '../api/password-reset';
import type { ResetRequestState } from './reset-request-form';

const newPasswordSchema = z
  .object({ password: passwordSchema, repeatPassword: passwordSchema })
  .superRefine(checkRepeatedPassword);

export function SetNewPasswordForm({ token }: { token: string }) {
  const navigate = useNavigate();
  const reset = usePasswordReset();
  const form = useForm<z.input<typeof newPasswordSchema>, unknown, z.output<typeof newPasswordSchema>>({
    resolver: zodResolver(newPasswordSchema),
    defaultValues: { password: '', repeatPassword: '' },
  });
  const errors = form.formState.errors;

  const submit = form.handleSubmit(({ password }) =>
    reset.mutate(
      { password, token },
      {
        onSuccess: () => {
          notify('success', messages.passwordUpdated);
          navigate('/login', { replace: true });
        },
        onError: (error) => {
          if (isFault(error, 'ActionTokenExpired', 'ActionTokenAlreadyUsed')) {
            const state: ResetRequestState = { isLinkExpired: true };
            navigate('/reset-password', { replace: true, state });
          }
        },
      },
    ),
  );

  return (
    <Page heading={text.setNewPasswordHeading}>
      <div className="card">
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
          <Button type="submit" isBusy={reset.isPending} disabled={reset.isPending}>
            {text.savePassword}
          </Button>
        </form>
      </div>
    </Page>
  );
}
