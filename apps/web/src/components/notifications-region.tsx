import { text } from '@soundid/contracts/ui-text';
import { dismissNotification, useNotifications } from '../lib/notifications';

/** Toasts, announced politely; danger ones assertively. */
export function NotificationsRegion() {
  const notifications = useNotifications();
  return (
    <section className="notifications" aria-label={text.notificationsRegion}>
      <div aria-live="polite" className="notifications__list">
        {notifications.map((notification) => (
          <div
            key={notification.id}
            className={`notification notification--${notification.type}`}
            role={notification.type === 'danger' ? 'alert' : 'status'}
          >
            <p className="notification__content">{notification.content}</p>
            <button
              type="button"
              className="notification__close"
              aria-label={text.close}
              onClick={() => dismissNotification(notification.id)}
            >
              <span aria-hidden="true">×</span>
            </button>
          </div>
        ))}
      </div>
    </section>
  );
}
