import { secondFactorText as t, text } from '@soundid/contracts/ui-text';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import {
  useBeginTotpSetup,
  useConfirmTotpSetup,
  useDisableTotp,
  useRegenerateRecoveryCodes,
  useSecondFactors,
} from '../api/second-factor';
import { QrCode } from './qr-code';
import './two-step-panel.css';

type Mode = 'idle' | 'setup' | 'turn-off' | 'regenerate';

/**
 * Two-step verification on the profile (ADR 0037): turn TOTP on (QR code and key, confirmed by
 * a first code, then the recovery codes shown once), make new recovery codes, or turn it off;
 * the last two need a current code or a recovery code.
 */
export function TwoStepPanel() {
  const status = useSecondFactors();
  const begin = useBeginTotpSetup();
  const [mode, setMode] = useState<Mode>('idle');
  const [codes, setCodes] = useState<string[]>();

  const start = () => begin.mutate(undefined, { onSuccess: () => setMode('setup') });
  const showCodes = (recoveryCodes: string[]) => {
    setCodes(recoveryCodes);
    setMode('idle');
  };

  return (
    <section className="card two-step" aria-labelledby="two-step-heading">
      <h2 id="two-step-heading" className="two-step__heading">
        {t.panelHeading}
      </h2>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />
      ) : status.isPending ? (
        <p>{text.loading}</p>
      ) : status.data?.TotpEnabled ? (
        <>
          <p>
            {t.on} {t.recoveryLeft(status.data.RecoveryCodesLeft)}
          </p>
          {mode === 'turn-off' || mode === 'regenerate' ? (
            <CodeCheck mode={mode} onCodes={showCodes} onClose={() => setMode('idle')} />
          ) : (
            <div className="form__actions">
              <Button variant="secondary" onClick={() => setMode('regenerate')}>
                {t.newRecoveryCodes}
              </Button>
              <Button variant="secondary" onClick={() => setMode('turn-off')}>
                {t.turnOff}
              </Button>
            </div>
          )}
        </>
      ) : mode === 'setup' && begin.data ? (
        <Setup
          secret={begin.data.Secret}
          url={begin.data.OtpauthUrl}
          onCodes={showCodes}
          onCancel={() => setMode('idle')}
        />
      ) : (
        <>
          <p>{t.off}</p>
          <Button isBusy={begin.isPending} disabled={begin.isPending} onClick={start}>
            {t.turnOn}
          </Button>
        </>
      )}
    </section>
  );
}

function Setup({
  secret,
  url,
  onCodes,
  onCancel,
}: {
  secret: string;
  url: string;
  onCodes(codes: string[]): void;
  onCancel(): void;
}) {
  const confirm = useConfirmTotpSetup();
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    confirm.mutate(code.trim(), {
      onSuccess: ({ RecoveryCodes }) => {
        notify('success', t.turnedOn);
        onCodes(RecoveryCodes);
      },
    });
  };
  return (
    <form className="form two-step__setup" noValidate onSubmit={submit}>
      <p>{t.scanIntro}</p>
      <QrCode value={url} label={t.qrLabel} />
      <p className="two-step__secret">
        {t.secretLabel}: <code>{secret.match(/.{1,4}/g)?.join(' ')}</code>
      </p>
      <TextField
        label={t.confirmLabel}
        name="code"
        autoComplete="one-time-code"
        inputMode="numeric"
        value={code}
        onChange={(event) => setCode(event.target.value)}
        invalid={isApiError(confirm.error)}
      />
      {isApiError(confirm.error) && <FormMessage tone="error">{confirm.error.message}</FormMessage>}
      <div className="form__actions">
        <Button type="submit" isBusy={confirm.isPending} disabled={!code.trim() || confirm.isPending}>
          {t.confirm}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}

/** A current code or a recovery code, then turn off or make new recovery codes. */
function CodeCheck({
  mode,
  onCodes,
  onClose,
}: {
  mode: 'turn-off' | 'regenerate';
  onCodes(codes: string[]): void;
  onClose(): void;
}) {
  const disable = useDisableTotp();
  const regenerate = useRegenerateRecoveryCodes();
  const action = mode === 'turn-off' ? disable : regenerate;
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'turn-off') {
      disable.mutate(code.trim(), {
        onSuccess: () => {
          notify('success', t.turnedOff);
          onClose();
        },
      });
    } else {
      regenerate.mutate(code.trim(), { onSuccess: ({ RecoveryCodes }) => onCodes(RecoveryCodes) });
    }
  };
  return (
    <form className="form" noValidate onSubmit={submit}>
      <TextField
        label={t.codeLabel}
        hint={t.codeToConfirm}
        name="code"
        autoComplete="one-time-code"
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
        invalid={isApiError(action.error)}
      />
      {isApiError(action.error) && <FormMessage tone="error">{action.error.message}</FormMessage>}
      <div className="form__actions">
        <Button
          type="submit"
          variant={mode === 'turn-off' ? 'danger' : 'primary'}
          isBusy={action.isPending}
          disabled={!code.trim() || action.isPending}
        >
          {mode === 'turn-off' ? t.turnOff : t.newRecoveryCodes}
        </Button>
        <Button variant="secondary" onClick={onClose}>
          {t.cancel}
        </Button>
      </div>
    </form>
  );
}

/** The recovery codes, shown once: copy, download, then done. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const [copied, setCopied] = useState(false);
  const file = `data:text/plain;charset=utf-8,${encodeURIComponent(`My SoundID recovery codes\n\n${codes.join('\n')}\n`)}`;
  return (
    <div className="two-step__codes">
      <h3 className="two-step__subheading">{t.recoveryHeading}</h3>
      <p>{t.recoveryIntro}</p>
      <ol className="two-step__code-list" aria-label={t.recoveryHeading}>
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div className="form__actions">
        <Button
          variant="secondary"
          onClick={() => void navigator.clipboard?.writeText(codes.join('\n')).then(() => setCopied(true))}
        >
          {copied ? t.copied : t.copy}
        </Button>
        <a className="button button--secondary" href={file} download="my-soundid-recovery-codes.txt">
          {t.download}
        </a>
        <Button onClick={onDone}>{t.done}</Button>
      </div>
    </div>
  );
}
