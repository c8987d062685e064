import { LOW_BALANCE_THRESHOLD_MAX, type NotificationPreferences, TOKEN_NOTICES_ANCHOR } from '@soundid/contracts';
import { tokenNoticesText as t, text } from '@soundid/contracts/ui-text';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../lib/notifications';
import { useNotificationPreferences, useSetNotificationPreferences } from '../api/token-notices';
import './token-notices-panel.css';

/**
 * The voice AI token mails on the profile (ADR 0057): expiry notices on or off, low-balance
 * notices on or off, and the low-balance threshold in tokens (its processing time beside it).
 */
export function TokenNoticesPanel() {
  const preferences = useNotificationPreferences();
  const section = useRef<HTMLElement>(null);
  const location = useLocation();
  const loaded = preferences.isSuccess;
  // A mail's link lands here: the panel is shown once its preferences have loaded.
  useEffect(() => {
    if (loaded && location.hash === `#${TOKEN_NOTICES_ANCHOR}`) section.current?.scrollIntoView?.();
  }, [loaded, location.hash]);

  return (
    <section
      id={TOKEN_NOTICES_ANCHOR}
      ref={section}
      className="card token-notices"
      aria-labelledby="token-notices-heading"
    >
      <h2 id="token-notices-heading" className="token-notices__heading">
        {t.heading}
      </h2>
      <p>{t.intro}</p>
      {preferences.isPending ? (
        <p>{text.loading}</p>
      ) : preferences.data ? (
        <PreferencesForm saved={preferences.data} />
      ) : (
        <FormMessage tone="error">{t.loadFailed}</FormMessage>
      )}
    </section>
  );
}

function PreferencesForm({ saved }: { saved: NotificationPreferences }) {
  const save = useSetNotificationPreferences();
  const [expiry, setExpiry] = useState(saved.ExpiryNotices);
  const [lowBalance, setLowBalance] = useState(saved.LowBalanceNotices);
  const [threshold, setThreshold] = useState(String(saved.LowBalanceThreshold));
  const [error, setError] = useState<string>();
  const tokens = Number(threshold.trim());
  const valid =
    threshold.trim() !== '' && Number.isInteger(tokens) && tokens > 0 && tokens <= LOW_BALANCE_THRESHOLD_MAX;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!valid) {
      setError(t.thresholdInvalid);
      return;
    }
    setError(undefined);
    save.mutate(
      { expiryNotices: expiry, lowBalanceNotices: lowBalance, lowBalanceThreshold: tokens },
      { onSuccess: () => notify('success', t.saved) },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Switch label={t.expiryNotices} checked={expiry} onChange={setExpiry} />
      <Switch label={t.lowBalanceNotices} checked={lowBalance} onChange={setLowBalance} />
      <TextField
        label={t.threshold}
        type="number"
        inputMode="numeric"
        min={1}
        step={1}
        value={threshold}
        disabled={!lowBalance}
        onChange={(event) => setThreshold(event.target.value)}
        hint={`${valid ? t.thresholdHint(tokens) : ''} ${t.defaultThreshold(saved.DefaultLowBalanceThreshold)}`.trim()}
        error={error}
      />
      <div className="form__actions">
        <Button type="submit" isBusy={save.isPending} disabled={save.isPending}>
          {t.save}
        </Button>
      </div>
    </form>
  );
}

/** An on/off choice: a checkbox announced as a switch, its label beside it. */
function Switch({ label, checked, onChange }: { label: string; checked: boolean; onChange(on: boolean): void }) {
  const id = useId();
  return (
    <div className="token-notices__switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={checked}
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}
