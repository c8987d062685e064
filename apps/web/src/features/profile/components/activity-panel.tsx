import { type AccountEvent, faultMessage, formatHistoryDate } from '@soundid/contracts';
import { activityText } from '@soundid/contracts/ui-text';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { FormMessage } from '../../../components/form-message';
import { Pager } from '../../../components/pager';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { setAnonymous } from '../../../lib/session';
import { reportNotMe, useMyActivity } from '../api/activity';
import './activity-panel.css';

/**
 * My activity (docs/decisions/0055-my-activity.md): the account's timeline, newest first and
 * paged, each entry with its date, browser or device and address where known, and "This wasn't
 * me" on what the customer may have been made to do. Reporting asks first; the report signs out
 * every device, this one too, so the customer lands on the sign-in page told to check the mail.
 */
export function ActivityPanel() {
  const [page, setPage] = useState(1);
  const activity = useMyActivity(page);
  const [disputing, setDisputing] = useState<AccountEvent>();

  return (
    <section className="card activity" aria-labelledby="activity-heading">
      <h2 id="activity-heading" className="activity__heading">
        {activityText.heading}
      </h2>
      <p className="activity__intro">{activityText.intro}</p>
      {activity.isPending ? (
        <p>{activityText.loading}</p>
      ) : activity.isError ? (
        <FormMessage tone="error">
          {isApiError(activity.error) ? activity.error.message : faultMessage('Unknown')}
        </FormMessage>
      ) : activity.data.PageItems.length === 0 ? (
        <p>{activityText.empty}</p>
      ) : (
        <>
          <ul className="activity__list" aria-busy={activity.isFetching || undefined}>
            {activity.data.PageItems.map((entry) => (
              <li key={entry.Id} className="activity__item">
                <span className="activity__what">
                  <span className="activity__text">{entry.Text}</span>
                  <span className="activity__meta">
                    <time dateTime={new Date(entry.At).toISOString()}>{formatHistoryDate(entry.At)}</time>
                    {entry.Ip ? ` · ${activityText.from(entry.Ip)}` : ''}
                  </span>
                </span>
                {entry.CanDispute && (
                  <Button variant="secondary" onClick={() => setDisputing(entry)}>
                    {activityText.notMe}
                    <span className="visually-hidden">: {entry.Text}</span>
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {activity.data.PageCount > 1 && (
            <Pager page={page} pageCount={activity.data.PageCount} isLoading={activity.isFetching} onPage={setPage} />
          )}
        </>
      )}
      {disputing && <NotMeDialog entry={disputing} onClose={() => setDisputing(undefined)} />}
    </section>
  );
}

/** The confirm step: what a report does, then the report; once done, the customer is signed out. */
function NotMeDialog({ entry, onClose }: { entry: AccountEvent; onClose: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();

  const confirm = () => {
    setBusy(true);
    setFailure(undefined);
    reportNotMe(entry.Id).then(
      () => {
        setAnonymous();
        queryClient.clear();
        notify('success', activityText.reported);
        navigate('/login', { replace: true });
      },
      (error: unknown) => {
        setBusy(false);
        setFailure(isApiError(error) ? error.message : faultMessage('Unknown'));
      },
    );
  };

  return (
    <Dialog title={activityText.confirmQuestion(entry.Text)} onClose={onClose} closeVariant="secondary">
      <p>{activityText.confirmWhat}</p>
      {failure && <FormMessage tone="error">{failure}</FormMessage>}
      <Button isBusy={busy} disabled={busy} onClick={confirm}>
        {activityText.confirm}
      </Button>
    </Dialog>
  );
}
