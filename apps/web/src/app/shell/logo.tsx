import { PAGE_TITLE_PREFIX } from '@soundid/contracts';
import { Link } from 'react-router';

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label={PAGE_TITLE_PREFIX}>
      <svg className="logo__mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="7" fill="currentColor" />
        <path
          d="M7 17h3l2-7 4 14 3-10 2 5h4"
          fill="none"
          stroke="var(--color-accent)"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      <span className="logo__text" aria-hidden="true">
        My <strong>SoundID</strong>
      </span>
    </Link>
  );
}
