import { text } from '@soundid/contracts/ui-text';
import { useEffect, useId, useRef, useState } from 'react';
import { closeAfterLinkChoice } from './hover-menu';
import { AccountLinks, CompanyLinks, PrimaryLinks, SupportLinks } from './nav-links';

/** The small-screen menu. While open, the page behind it does not scroll (spec §1). */
export function MobileMenu({ email, isSignedIn }: { email: string | undefined; isSignedIn: boolean }) {
  const [isOpen, setOpen] = useState(false);
  const panelId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!isOpen) return;
    document.body.classList.add('is-scroll-locked');
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => {
      document.body.classList.remove('is-scroll-locked');
      document.removeEventListener('keydown', closeOnEscape);
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
        <h2 className="mobile-menu__heading">{email ?? text.nav.account}</h2>
        <AccountLinks email={email} />
      </nav>
    </div>
  );
}
