import type { LicenceNotification } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { ActionButtonView } from './action-button';

const TONE = { High: 'high', Medium: 'medium', Low: 'low' } as const;

/** A licence's notifications: High red, Medium yellow, Low green; an action only where supported. */
export function LicenceNotices({ notifications }: { notifications: readonly LicenceNotification[] }) {
  if (notifications.length === 0) return null;
  return (
    <ul className="licence-notices" aria-label={licencesText.notifications}>
      {notifications.map((notification) => (
        <li
          key={`${notification.Importance}-${notification.Message}`}
          className={`licence-notice licence-notice--${TONE[notification.Importance] ?? 'medium'}`}
          data-importance={notification.Importance}
        >
          <span className="licence-notice__message">{notification.Message}</span>
          {notification.Action && <ActionButtonView button={notification.Action} size="small" />}
        </li>
      ))}
    </ul>
  );
}
