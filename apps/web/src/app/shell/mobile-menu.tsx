import { text } from '@soundid/contracts/ui-text';
import { useEffect, useId, useRef, useState } from 'react';
import { closeAfterLinkChoice } from './hover-menu';
import { AccountLinks, CompanyLinks, PrimaryLinks, SupportLinks } from './nav-links';

/** Where the menu button shows (mobile-menu.css, `@media (max-width: 56rem)`). */
const SMALL_SCREEN = '(max-width: 56rem)';

/** The page behind the open menu: out of the keyboard's reach, so Tab stays in the header. */
const BEHIND_THE_MENU = '.shell__main, .footer, .skip-link';

/**
 * The small-screen menu. While open, the page behind it does not scroll (docs/requirements.md §1) and cannot be
 * reached with Tab; a screen that grows past the small-screen width closes it (its button is
 * gone there, and the scroll lock with it).
 */
export function MobileMenu({ email, isSignedIn }: { email: string | undefined; isSignedIn: boolean }) {
  const [isOpen, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    document.body.classList.add('is-scroll-locked');
    const behind = [...document.querySelectorAll<HTMLElement>(BEHIND_THE_MENU)];
    for (const element of behind) element.inert = true;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    const smallScreen = window.matchMedia?.(SMALL_SCREEN);
    const closeOnWideScreen = () => {
      if (!smallScreen?.matches) setOpen(false);
    };
    smallScreen?.addEventListener('change', closeOnWideScreen);
    return () => {
      document.body.classList.remove('is-scroll-locked');
      for (const element of behind) element.inert = false;
      document.removeEventListener('keydown', closeOnEscape);
      smallScreen?.removeEventListener('change', closeOnWideScreen);
    };
  }, [isOpen]);

  return (
    <div className="mobile-menu">
      <button
        ref={buttonRef}
        type="button"
        className="mobile-menu__button"
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="mobile-menu__icon" aria-hidden="true" />
        <span className="visually-hidden">{isOpen ? text.nav.closeMenu : text.nav.openMenu}</span>
      </button>
      <nav
        id={panelId}
        className="mobile-menu__panel"
        aria-label={text.nav.primary}
        hidden={!isOpen}
        onClickCapture={closeAfterLinkChoice(setOpen)}
      >
        <PrimaryLinks isSignedIn={isSignedIn} />
        <h2 className="mobile-menu__heading">{text.nav.support}</h2>
        <SupportLinks />
        <h2 className="mobile-menu__heading">{text.nav.company}</h2>
        <CompanyLinks />
        <h2 className={email ? 'mobile-menu__heading mobile-menu__heading--address' : 'mobile-menu__heading'}>
          {email ?? text.nav.account}
        </h2>
        <AccountLinks email={email} withProfile={false} />
      </nav>
    </div>
  );
}
