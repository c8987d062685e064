import { formatHistoryDate, messages } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { Button } from '../../../components/button';
import { notify } from '../../../lib/notifications';
import { useEndOtherSessions, useSessions } from '../api/sessions';

/** Where the customer is signed in, with a way to sign out everywhere else. */
export function SessionsPanel() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  const others = sessions.data?.filter((s) => !s.Current).length ?? 0;

  return (
    <section className="card sessions" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="sessions__heading">
        {profileText.sessionsHeading}
      </h2>
      {sessions.isPending ? (
        <p>{text.loading}</p>
      ) : (
        <ul className="sessions__list">
          {sessions.data?.map((session) => (
            <li key={session.Id} className="sessions__item">
              <span className="sessions__device">{session.Device}</span>
              <span className="sessions__meta">
                {session.Current
                  ? profileText.thisDevice
                  : `${profileText.lastActive} ${formatHistoryDate(session.LastSeenAt)}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      {others > 0 && (
        <Button
          variant="secondary"
          isBusy={endOthers.isPending}
          disabled={endOthers.isPending}
          onClick={() =>
            endOthers.mutate(undefined, { onSuccess: () => notify('success', messages.otherSessionsEnded) })
          }
        >
          {profileText.endOtherSessions}
        </Button>
      )}
    </section>
  );
}
