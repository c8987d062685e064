import { zodResolver } from '@hookform/resolvers/zod';
import { emailSchema, faultMessage, messages, passwordSchema } from '@soundid/contracts';
import { text, titles } from '@soundid/contracts/ui-text';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { Button } from '../../../components/button';
import { Page } from '../../../components/page';
import { PasswordField } from '../../../components/password-field';
import { TextField } from '../../../components/text-field';
import { isApiError } from '../../../lib/api-errors';
import { checkRepeatedPassword } from '../../../lib/password-rules';
import { useRegister } from '../api/register';

const signupSchema = z
  .object({ email: emailSchema, password: passwordSchema, repeatPassword: passwordSchema })
  .superRefine(checkRepeatedPassword);
type SignupValues = z.output<typeof signupSchema>;

export function SignupScreen() {
  const register = useRegister();
  const form = useForm<z.input<typeof signupSchema>, unknown, SignupValues>({
    resolver: zodResolver(signupSchema),
    defaultValues: { email: '', password: '', repeatPassword: '' },
  });
  const errors = form.formState.errors;

  if (register.isSuccess) {
    return (
      <Page heading={text.pleaseVerifyEmail}>
        <p role="status">{text.verificationSentTo(register.variables.email)}</p>
        <p>
          <Link to="/login">{text.backToLogin}</Link>
        </p>
      </Page>
    );
  }

  // The service's fault belongs to the e-mail field (docs/requirements.md §8) until the customer edits it.
  const emailFault = isApiError(register.error)
    ? faultMessage(register.error.faultName, register.error.fault.ExceptionUserText)
    : undefined;

  return (
    <Page heading={titles.signup}>
      <div className="card">
        <form
          className="form"
          noValidate
          onSubmit={form.handleSubmit(({ email, password }) => register.mutate({ email, password }))}
        >
          <TextField
            label={text.email}
            type="email"
            autoComplete="email"
            error={errors.email?.message ?? emailFault}
            {...form.register('email', { onChange: () => register.reset() })}
          />
          <PasswordField
            label={text.password}
            autoComplete="new-password"
            hint={messages.passwordHint}
            error={errors.password?.message}
            {...form.register('password')}
          />
          <PasswordField
            label={text.repeatPassword}
            autoComplete="new-password"
            error={errors.repeatPassword?.message}
            {...form.register('repeatPassword')}
          />
          <Button type="submit" isBusy={register.isPending} disabled={register.isPending}>
            {text.signupButton}
          </Button>
        </form>
      </div>
      <p className="page__aside">
        {text.haveAccount} <Link to="/login">{text.loginLink}</Link>
      </p>
    </Page>
  );
}
