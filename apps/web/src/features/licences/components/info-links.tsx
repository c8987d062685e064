import type { InfoLink } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import type { ReactNode } from 'react';

export function InfoLinks({ links }: { links: readonly InfoLink[] }) {
  if (links.length === 0) return null;
  return (
    <ul className="info-links" aria-label={licencesText.infoLinks}>
      {links.map((link) => (
        <li key={link.Url}>
          <ExternalAwareLink className="info-links__link" href={link.Url}>
            {link.Title}
          </ExternalAwareLink>
        </li>
      ))}
    </ul>
  );
}

const EXTERNAL = /^https?:\/\//i;

/** Links to other sites open in a new tab (and say so to screen readers); the portal's own stay. */
export function ExternalAwareLink({
  href,
  className,
  label,
  children,
}: {
  href: string;
  className?: string;
  /** A fuller accessible name than the visible text (which it starts with). */
  label?: string;
  children: ReactNode;
}) {
  const isExternal = EXTERNAL.test(href);
  const ariaLabel = label && (isExternal ? `${label} ${licencesText.voiceAi.opensInNewTab}` : label);
  return (
    <a
      className={className}
      href={href}
      aria-label={ariaLabel}
      {...(isExternal ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
    >
      {children}
      {isExternal && !label && <span className="visually-hidden"> {licencesText.voiceAi.opensInNewTab}</span>}
    </a>
  );
}
