import { text, titles } from '@soundid/contracts/ui-text';
import { useEffect } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { redirectRoutePath, rememberNavigation } from '../../../lib/navigation-memory';
import { LoginForm } from './login-form';
import { PasskeyButton } from './passkey-button';
import { SocialButtons } from './social-buttons';

export function LoginScreen() {
  const { target } = useParams();
  const [searchParams] = useSearchParams();
  const returnTo = searchParams.get('return_to');

  // A login for another site (its target) must survive a detour through signup or reset.
  useEffect(() => {
    if (target) rememberNavigation({ savedRedirectPath: redirectRoutePath(target, returnTo) });
  }, [target, returnTo]);

  return (
    <Page heading={titles.login}>
      <div className="card">
        <SocialButtons />
        <LoginForm otherWays={<PasskeyButton />} />
        <p className="card__links">
          <Link to="/reset-password">{text.forgotPasswordLink}</Link>
        </p>
      </div>
      <p className="page__aside">
        {text.noAccount} <Link to="/signup">{text.signupLink}</Link>
      </p>
    </Page>
  );
}
