import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, faultMessage, messages } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useChangeEmail } from '../api/change-email';

const changeEmailSchema = z.object({ newEmail: emailSchema });

export function EmailEditor({ onDone }: { onDone: () => void }) {
  const changeEmail = useChangeEmail();
  const form = useForm<z.input<typeof changeEmailSchema>, unknown, z.output<typeof changeEmailSchema>>({
    resolver: zodResolver(changeEmailSchema),
    defaultValues: { newEmail: '' },
  });
  const submit = form.handleSubmit(({ newEmail }) =>
    changeEmail.mutate(newEmail, {
      onSuccess: () => {
        notify('success', messages.emailChangeRequested);
        onDone();
      },
    }),
  );
  return (
    <form className="form form--inline" noValidate onSubmit={submit}>
      <TextField
        label={profileText.newEmail}
        type="email"
        autoComplete="email"
        autoFocus
        error={form.formState.errors.newEmail?.message}
        {...form.register('newEmail')}
      />
      {/* The request limit is handled here, not by the global banner (docs/requirements.md §8). */}
      {isFault(changeEmail.error, 'AttemptOverLimitChangeEmail') && (
        <FormMessage tone="error">{faultMessage('AttemptOverLimitChangeEmail')}</FormMessage>
      )}
      <div className="form__actions">
        <Button type="submit" isBusy={changeEmail.isPending} disabled={changeEmail.isPending}>
          {text.save}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          {text.cancel}
        </Button>
      </div>
    </form>
  );
}
