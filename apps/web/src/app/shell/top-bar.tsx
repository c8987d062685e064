import { text } from '@soundid/contracts/ui-text';
import { useSessionUser } from '../../lib/session';
import { HoverMenu } from './hover-menu';
import { Logo } from './logo';
import { MobileMenu } from './mobile-menu';
import { AccountLinks, CompanyLinks, PrimaryLinks, SupportLinks } from './nav-links';

export function TopBar() {
  const user = useSessionUser();
  const email = user?.Email;
  return (
    <header className="top-bar">
      <div className="top-bar__inner">
        <Logo />
        <nav className="top-bar__nav top-bar__desktop" aria-label={text.nav.primary}>
          <PrimaryLinks isSignedIn={Boolean(user)} />
          <HoverMenu label={text.nav.support}>
            <SupportLinks />
          </HoverMenu>
          <HoverMenu label={text.nav.company}>
            <CompanyLinks />
          </HoverMenu>
        </nav>
        <div className="top-bar__account top-bar__desktop">
          {email === undefined ? (
            <AccountLinks email={undefined} />
          ) : (
            <HoverMenu label={<span className="top-bar__email">{email}</span>}>
              <AccountLinks email={email} />
            </HoverMenu>
          )}
        </div>
        <MobileMenu email={email} isSignedIn={Boolean(user)} />
      </div>
    </header>
  );
}
