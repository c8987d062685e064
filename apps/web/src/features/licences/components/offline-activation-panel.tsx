import { faultMessage, licenceMessages, SWDEACTIVATE_MAX_LENGTH, SWINFO_MAX_LENGTH } from '@soundid/contracts';
import { text as coreText, licencesText } from '@soundid/contracts/ui-text';
import { type FormEvent, type ReactNode, useId, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { saveTextFile } from '../../../lib/save-text-file';
import { useReloadLicences } from '../api/get-account-licences';
import { useOfflineActivate } from '../api/offline-activate';
import { useOfflineDeactivate } from '../api/offline-deactivate';
import { Panel } from './panel';

const text = licencesText.offline;

/**
 * The offline panel (docs/offline-activation.md), shown only where the service offers it (ADR 0013):
 * upload the app's .swinfo request and get the signed licence file back; or upload an offline
 * machine's .swdeactivate request and get its seat back with a signed receipt (ADR 0053). Both
 * download what the service answers and reload the licence list, whose devices then show the change.
 */
export function OfflineActivationPanel({ id, onClose }: { id: string; onClose: () => void }) {
  const activation = useOfflineActivate();
  const deactivation = useOfflineDeactivate();
  const reload = useReloadLicences();
  const activateId = useId();
  const deactivateId = useId();

  const done = async (fileName: string, content: string, message: string) => {
    saveTextFile(fileName, content);
    notify('success', message);
    onClose();
    await reload();
  };

  return (
    <Panel id={id} heading={text.heading} onClose={onClose}>
      <section aria-labelledby={activateId}>
        <h4 id={activateId}>{text.activateHeading}</h4>
        <p>{text.intro}</p>
        <OfflineUploadForm
          mutation={activation}
          label={text.fileLabel}
          hint={text.fileHint}
          accept=".swinfo"
          maxLength={SWINFO_MAX_LENGTH}
          fileMissing={text.fileMissing}
          submitLabel={licenceMessages.downloadLicenseFile}
          onUploaded={(result) => done(result.FileName, result.Content, text.downloaded(result.FileName))}
        >
          <Button variant="secondary" onClick={onClose}>
            {coreText.cancel}
          </Button>
        </OfflineUploadForm>
      </section>
      <section aria-labelledby={deactivateId}>
        <h4 id={deactivateId}>{text.deactivateHeading}</h4>
        <p>{text.deactivateIntro}</p>
        <OfflineUploadForm
          mutation={deactivation}
          label={text.deactivateFileLabel}
          hint={text.deactivateFileHint}
          accept=".swdeactivate"
          maxLength={SWDEACTIVATE_MAX_LENGTH}
          fileMissing={text.deactivateFileMissing}
          submitLabel={text.deactivateSubmit}
          onUploaded={(result) =>
            done(result.FileName, result.Content, text.receiptDownloaded(result.Message, result.FileName))
          }
        />
      </section>
    </Panel>
  );
}

/** The part of a React Query mutation the form drives: a file's text in, the service's answer out. */
interface UploadMutation<Result> {
  mutate(fileText: string, options: { onSuccess: (result: Result) => Promise<void> }): void;
  reset(): void;
  isPending: boolean;
  error: Error | null;
}

/** One file chosen, checked for size, its text sent; the service's reason shown under it when refused. */
function OfflineUploadForm<Result>({
  mutation,
  label,
  hint,
  accept,
  maxLength,
  fileMissing,
  submitLabel,
  onUploaded,
  children,
}: {
  mutation: UploadMutation<Result>;
  label: string;
  hint: string;
  accept: string;
  maxLength: number;
  fileMissing: string;
  submitLabel: string;
  onUploaded: (result: Result) => Promise<void>;
  children?: ReactNode;
}) {
  const input = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    mutation.reset();
    const file = input.current?.files?.[0];
    if (!file) {
      setProblem(fileMissing);
      input.current?.focus();
      return;
    }
    if (file.size > maxLength) {
      setProblem(faultMessage('RequestTooLarge'));
      return;
    }
    mutation.mutate(await file.text(), { onSuccess: onUploaded });
  };

  const error = problem ?? (mutation.error ? offlineErrorText(mutation.error) : undefined);
  return (
    <form className="form" noValidate onSubmit={(event) => void submit(event)}>
      <div className="field">
        <label className="field__label" htmlFor={inputId}>
          {label}
        </label>
        <input
          ref={input}
          id={inputId}
          className="field__input field__file"
          type="file"
          accept={accept}
          aria-describedby={`${inputId}-hint`}
          aria-invalid={Boolean(error) || undefined}
          onChange={() => {
            setProblem(undefined);
            mutation.reset();
          }}
        />
        <p className="field__hint" id={`${inputId}-hint`}>
          {hint}
        </p>
      </div>
      {error && <FormMessage tone="error">{error}</FormMessage>}
      <div className="form__actions">
        <Button type="submit" isBusy={mutation.isPending} disabled={mutation.isPending}>
          {submitLabel}
        </Button>
        {children}
      </div>
    </form>
  );
}

/** The fault's message, and for a bad file the service's reason (which field, which version, which proof). */
function offlineErrorText(error: Error): string {
  if (!isApiError(error)) return error.message;
  const reason = error.variable('Reason');
  return reason ? `${error.message} ${reason}` : error.message;
}
