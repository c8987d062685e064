import { faultMessage, licenceMessages, SWINFO_MAX_LENGTH } from '@soundid/contracts';
import { text as coreText, licencesText } from '@soundid/contracts/ui-text';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { saveTextFile } from '../../../lib/save-text-file';
import { useReloadLicences } from '../api/get-account-licences';
import { useOfflineActivate } from '../api/offline-activate';
import { Panel } from './panel';

const text = licencesText.offline;

/**
 * Offline activation (docs/offline-activation.md): upload the app's .swinfo request, get the
 * signed licence file back as a download. Shown only where the service offers it (ADR 0013).
 */
export function OfflineActivationPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const activation = useOfflineActivate();
  const reload = useReloadLicences();
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    activation.reset();
    const file = input.current?.files?.[0];
    if (!file) {
      setProblem(text.fileMissing);
      input.current?.focus();
      return;
    }
    if (file.size > SWINFO_MAX_LENGTH) {
      setProblem(faultMessage('RequestTooLarge'));
      return;
    }
    activation.mutate(await file.text(), {
      onSuccess: async (result) => {
        saveTextFile(result.FileName, result.Content);
        notify('success', text.downloaded(result.FileName));
        onClose();
        await reload();
      },
    });
  };

  const error = problem ?? (activation.error ? offlineErrorText(activation.error) : undefined);
  return (
    <Panel id={id} heading={text.heading} onClose={onClose}>
      <p>{text.intro}</p>
      <form className="form" noValidate onSubmit={(event) => void submit(event)}>
        <div className="field">
          <label className="field__label" htmlFor={inputId}>
            {text.fileLabel}
          </label>
          <input
            ref={input}
            id={inputId}
            className="field__input field__file"
            type="file"
            accept=".swinfo"
            aria-describedby={`${inputId}-hint`}
            aria-invalid={Boolean(error) || undefined}
            onChange={() => {
              setProblem(undefined);
              activation.reset();
            }}
          />
          <p className="field__hint" id={`${inputId}-hint`}>
            {text.fileHint}
          </p>
        </div>
        {error && <FormMessage tone="error">{error}</FormMessage>}
        <div className="form__actions">
          <Button type="submit" isBusy={activation.isPending} disabled={activation.isPending}>
            {licenceMessages.downloadLicenseFile}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {coreText.cancel}
          </Button>
        </div>
      </form>
    </Panel>
  );
}

/** The fault's message, and for a bad file the service's reason (which field, which version). */
function offlineErrorText(error: Error): string {
  if (!isApiError(error)) return error.message;
  const reason = error.variable('Reason');
  return reason ? `${error.message} ${reason}` : error.message;
}
