import { text } from '@soundid/contracts/ui-text';
import { DOWNLOAD_CENTER_PATH, externalLinks } from '../../config/external-links';

export function Footer() {
  return (
    <footer className="footer">
      <nav className="footer__inner" aria-label={text.footer.label}>
        <ul className="footer__links">
          <li>
            <a href={externalLinks.store}>{text.nav.store}</a>
          </li>
          <li>
            <a href={DOWNLOAD_CENTER_PATH}>{text.nav.downloads}</a>
          </li>
          <li>
            <a href={externalLinks.support}>{text.nav.support}</a>
          </li>
          <li>
            <a href={externalLinks.blog}>{text.nav.blog}</a>
          </li>
          <li>
            <a href={externalLinks.about}>{text.nav.about}</a>
          </li>
          <li>
            <a href={externalLinks.privacy}>{text.footer.privacy}</a>
          </li>
          <li>
            <a href={externalLinks.terms}>{text.footer.terms}</a>
          </li>
        </ul>
        {/* UTC: the service renders some pages ahead (ADR 0024), and the browser's first render must match. */}
        <p className="footer__copyright">{text.footer.copyright(new Date().getUTCFullYear())}</p>
      </nav>
    </footer>
  );
}
