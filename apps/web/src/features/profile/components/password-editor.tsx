import { zodResolver } from '@hookform/resolvers/zod';
import { messages, passwordSchema } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { PasswordField } from '../../../components/password-field';
import { isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useChangePassword } from '../api/change-password';
import { newPasswordFaultText } from '../lib/password-fault';

const changePasswordSchema = z.object({ oldPassword: passwordSchema, newPassword: passwordSchema });

export function PasswordEditor({ onDone }: { onDone: () => void }) {
  const changePassword = useChangePassword();
  const form = useForm<z.input<typeof changePasswordSchema>, unknown, z.output<typeof changePasswordSchema>>({
    resolver: zodResolver(changePasswordSchema),
    defaultValues: { oldPassword: '', newPassword: '' },
  });
  const errors = form.formState.errors;
  const submit = form.handleSubmit((values) =>
    changePassword.mutate(values, {
      onSuccess: () => {
        notify('success', messages.passwordUpdated);
        onDone();
      },
    }),
  );
  return (
    <form className="form form--inline" noValidate onSubmit={submit}>
      <PasswordField
        label={profileText.currentPassword}
        autoComplete="current-password"
        autoFocus
        error={errors.oldPassword?.message}
        {...form.register('oldPassword')}
      />
      <PasswordField
        label={text.newPassword}
        autoComplete="new-password"
        hint={messages.passwordHint}
        error={errors.newPassword?.message}
        {...form.register('newPassword')}
      />
      {changePassword.isError && (
        <FormMessage tone="error">
          {isFault(changePassword.error, 'UserPasswordChangeOldPasswordInvalid')
            ? messages.oldPasswordIncorrect
            : // The old password is checked under the sign-in lockout (ADR 0028): its message says when to retry.
              isFault(changePassword.error, 'AttemptOverLimitLogin')
              ? changePassword.error.message
              : newPasswordFaultText(changePassword.error)}
        </FormMessage>
      )}
      <div className="form__actions">
        <Button type="submit" isBusy={changePassword.isPending} disabled={changePassword.isPending}>
          {text.save}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {text.cancel}
        </Button>
      </div>
    </form>
  );
}
