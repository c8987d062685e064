import { text } from '@soundid/contracts/ui-text';
import { NavLink } from 'react-router';
import { DOWNLOAD_CENTER_PATH, externalLinks } from '../../config/external-links';

/** Links of the primary navigation; the app's own pages only for a signed-in customer. */
export function PrimaryLinks({ isSignedIn }: { isSignedIn: boolean }) {
  return (
    <ul className="nav-list">
      {isSignedIn && (
        <>
          <li>
            <NavLink className="nav-link" to="/products">
              {text.nav.products}
            </NavLink>
          </li>
          <li>
            <NavLink className="nav-link" to="/profile" end>
              {text.nav.profile}
            </NavLink>
          </li>
        </>
      )}
      <li>
        <a className="nav-link" href={externalLinks.store}>
          {text.nav.store}
        </a>
      </li>
      <li>
        <a className="nav-link" href={DOWNLOAD_CENTER_PATH}>
          {text.nav.downloads}
        </a>
      </li>
    </ul>
  );
}

export function SupportLinks() {
  return (
    <ul className="menu-list">
      <li>
        <a href={externalLinks.support}>{text.nav.helpCenter}</a>
      </li>
      <li>
        <a href={externalLinks.blog}>{text.nav.blog}</a>
      </li>
    </ul>
  );
}

export function CompanyLinks() {
  return (
    <ul className="menu-list">
      <li>
        <a href={externalLinks.about}>{text.nav.about}</a>
      </li>
      <li>
        <a href={externalLinks.careers}>{text.nav.careers}</a>
      </li>
      <li>
        <a href={externalLinks.contact}>{text.nav.contact}</a>
      </li>
    </ul>
  );
}

/**
 * Sign-in and sign-up, or the signed-in customer's Profile and Log out. The mobile menu, which
 * lists the primary links beside these, leaves Profile out of them (`withProfile`).
 */
export function AccountLinks({ email, withProfile = true }: { email: string | undefined; withProfile?: boolean }) {
  if (email === undefined) {
    return (
      <ul className="nav-list">
        <li>
          <NavLink className="nav-link" to="/login">
            {text.nav.logIn}
          </NavLink>
        </li>
        <li>
          <NavLink className="button button--primary button--small" to="/signup">
            {text.nav.signUp}
          </NavLink>
        </li>
      </ul>
    );
  }
  return (
    <ul className="menu-list">
      {withProfile && (
        <li>
          <NavLink to="/profile" end>
            {text.nav.profile}
          </NavLink>
        </li>
      )}
      <li>
        <NavLink to="/logout">{text.nav.logOut}</NavLink>
      </li>
    </ul>
  );
}
