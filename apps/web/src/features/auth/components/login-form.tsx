import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, faultMessage, messages, passwordSchema } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import { isApiError, isFault } from '../../../lib/api-errors';
import { type EmailCredentials, useLoginByEmail } from '../api/login-by-email';
import { useResendVerificationEmail } from '../api/resend-verification-email';

const loginSchema = z.object({ email: emailSchema, password: passwordSchema });

/**
 * E-mail sign-in (spec §5): an invalid field takes the focus (e-mail first), the validators'
 * texts are not shown, and submit waits for both fields. Success sets the user; the guards
 * then take the customer on.
 */
export function LoginForm() {
  const form = useForm<z.input<typeof loginSchema>, unknown, EmailCredentials>({
    resolver: zodResolver(loginSchema),
    defaultValues: { email: '', password: '' },
  });
  const login = useLoginByEmail();
  const resend = useResendVerificationEmail();
  const [credentials, setCredentials] = useState<EmailCredentials>();
  const [email, password] = form.watch(['email', 'password']);
  const isBlank = !email || !password;
  const errors = form.formState.errors;

  const submit = form.handleSubmit((values) => {
    resend.reset();
    setCredentials(values);
    login.mutate(values);
  });

  return (
    <form className="form" onSubmit={submit} noValidate>
      <TextField
        label={text.email}
        type="email"
        autoComplete="email"
        invalid={Boolean(errors.email)}
        {...form.register('email')}
      />
      <PasswordField
        label={text.password}
        autoComplete="current-password"
        invalid={Boolean(errors.password)}
        {...form.register('password')}
      />
      {isFault(login.error, 'UserLoginEmailUnverifiedAndLinkExpired') ? (
        resend.isSuccess ? (
          <FormMessage tone="success">{messages.verificationResent}</FormMessage>
        ) : (
          <FormMessage tone="error">
            <p>{messages.verifyToLogIn}</p>
            <Button
              variant="secondary"
              isBusy={resend.isPending}
              disabled={resend.isPending || !credentials}
              onClick={() => credentials && resend.mutate(credentials)}
            >
              {text.resendVerificationLink}
            </Button>
          </FormMessage>
        )
      ) : (
        isApiError(login.error) && (
          <FormMessage tone="error">
            {faultMessage(login.error.faultName, login.error.fault.ExceptionUserText)}
          </FormMessage>
        )
      )}
      <Button type="submit" isBusy={login.isPending} disabled={isBlank || login.isPending}>
        {text.loginButton}
      </Button>
    </form>
  );
}
