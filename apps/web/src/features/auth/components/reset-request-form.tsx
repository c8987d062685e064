import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, faultMessage, messages } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { Link, useLocation } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { TextField } from '../../../components/text-field';
import { isApiError } from '../../../lib/api-errors';
import { useInitiatePasswordReset } from '../api/initiate-password-reset';

const resetRequestSchema = z.object({ email: emailSchema });

/** Set by the token form when its link had expired or was used. */
export interface ResetRequestState {
  isLinkExpired?: boolean;
}

export function ResetRequestForm() {
  const location = useLocation();
  const isLinkExpired = (location.state as ResetRequestState | null)?.isLinkExpired === true;
  const request = useInitiatePasswordReset();
  const form = useForm<z.input<typeof resetRequestSchema>, unknown, z.output<typeof resetRequestSchema>>({
    resolver: zodResolver(resetRequestSchema),
    defaultValues: { email: '' },
  });

  if (request.isSuccess) {
    return (
      <Page heading={text.pleaseCheckInbox}>
        <p role="status">{text.resetLinkSentTo(request.variables)}</p>
        <p>
          <Link to="/login">{text.backToLogin}</Link>
        </p>
      </Page>
    );
  }

  const emailFault = isApiError(request.error)
    ? faultMessage(request.error.faultName, request.error.fault.ExceptionUserText)
    : undefined;

  return (
    <Page heading={text.forgotPasswordHeading}>
      <div className="card">
        {isLinkExpired && <FormMessage tone="error">{messages.resetLinkExpired}</FormMessage>}
        <p>{text.forgotPasswordIntro}</p>
        <form className="form" noValidate onSubmit={form.handleSubmit(({ email }) => request.mutate(email))}>
          <TextField
            label={text.email}
            type="email"
            autoComplete="email"
            error={form.formState.errors.email?.message ?? emailFault}
            {...form.register('email', { onChange: () => request.reset() })}
          />
          <Button type="submit" isBusy={request.isPending} disabled={request.isPending}>
            {text.sendLink}
          </Button>
        </form>
      </div>
      <p className="page__aside">
        <Link to="/login">{text.backToLogin}</Link>
      </p>
    </Page>
  );
}
