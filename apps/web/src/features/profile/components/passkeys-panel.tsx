import type { Passkey } from '@soundid/contracts';
import { passkeyText as t, text } from '@soundid/contracts/ui-text';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useAddPasskey, usePasskeys, useRemovePasskey, useRenamePasskey } from '../api/passkeys';
import './passkeys-panel.css';

const day = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' }).format(new Date(iso));

/** An API fault's text; a closed or refused browser prompt says so. */
const problem = (error: unknown) => (isApiError(error) ? error.message : t.cancelled);

/**
 * Passkeys on the profile (ADR 0039): add one (the browser's prompt; named after the device),
 * see when each was added and last used, rename or remove it. Open to every customer, with or
 * without a password.
 */
export function PasskeysPanel() {
  const list = usePasskeys();
  const add = useAddPasskey();
  const create = () =>
    add.mutate(undefined, {
      onSuccess: () => notify('success', t.added),
    });

  return (
    <section className="card passkeys" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" className="passkeys__heading">
        {t.panelHeading}
      </h2>
      <p>{t.intro}</p>
      {list.isPending ? (
        <p>{text.loading}</p>
      ) : list.data && list.data.length > 0 ? (
        <ul className="passkeys__list" aria-label={t.listLabel}>
          {list.data.map((passkey) => (
            <PasskeyItem key={passkey.Id} passkey={passkey} />
          ))}
        </ul>
      ) : (
        <p>{t.none}</p>
      )}
      {add.isError && <FormMessage tone="error">{problem(add.error)}</FormMessage>}
      <Button isBusy={add.isPending} disabled={add.isPending} onClick={create}>
        {t.add}
      </Button>
    </section>
  );
}

function PasskeyItem({ passkey }: { passkey: Passkey }) {
  const [mode, setMode] = useState<'idle' | 'rename' | 'remove'>('idle');
  const rename = useRenamePasskey();
  const remove = useRemovePasskey();
  const [name, setName] = useState(passkey.Name);
  const save = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ id: passkey.Id, name: name.trim() }, { onSuccess: () => setMode('idle') });
  };
  const used = passkey.LastUsedAt ? t.lastUsed(day(passkey.LastUsedAt)) : t.neverUsed;

  return (
    <li className="passkeys__item">
      {mode === 'rename' ? (
        <form className="form" noValidate onSubmit={save}>
          <TextField
            label={t.nameLabel}
            name="passkey-name"
            autoFocus
            maxLength={64}
            value={name}
            onChange={(event) => setName(event.target.value)}
            invalid={isApiError(rename.error)}
          />
          {isApiError(rename.error) && <FormMessage tone="error">{rename.error.message}</FormMessage>}
          <div className="form__actions">
            <Button type="submit" isBusy={rename.isPending} disabled={!name.trim() || rename.isPending}>
              {t.save}
            </Button>
            <Button variant="secondary" onClick={() => setMode('idle')}>
              {t.cancel}
            </Button>
          </div>
        </form>
      ) : (
        <>
          <div className="passkeys__summary">
            <span className="passkeys__name">{passkey.Name}</span>
            <span className="passkeys__meta">
              {t.created(day(passkey.CreatedAt))}, {used}
              {passkey.BackedUp && `, ${t.synced}`}
            </span>
          </div>
          {mode === 'remove' ? (
            <div className="passkeys__confirm">
              <p>{t.removeConfirm(passkey.Name)}</p>
              {isApiError(remove.error) && <FormMessage tone="error">{remove.error.message}</FormMessage>}
              <div className="form__actions">
                <Button
                  variant="danger"
                  isBusy={remove.isPending}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(passkey.Id, { onSuccess: () => notify('success', t.removed) })}
                >
                  {t.remove}
                </Button>
                <Button variant="secondary" onClick={() => setMode('idle')}>
                  {t.cancel}
                </Button>
              </div>
            </div>
          ) : (
            <div className="form__actions">
              <Button variant="secondary" aria-label={`${t.rename} ${passkey.Name}`} onClick={() => setMode('rename')}>
                {t.rename}
              </Button>
              <Button variant="secondary" aria-label={`${t.remove} ${passkey.Name}`} onClick={() => setMode('remove')}>
                {t.remove}
              </Button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
