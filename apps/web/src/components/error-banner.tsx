import { FAULT_HELP_LINKS, type FaultName, faultMessage } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { dismissApiError, useApiErrors } from '../lib/api-errors';

/** The generic handler's danger banner (docs/requirements.md §8): one line per fault, message by fault name. */
export function ErrorBanner() {
  const errors = useApiErrors();
  if (errors.length === 0) return null;
  return (
    <section className="error-banner" aria-label={text.errorsRegion}>
      {errors.map(({ id, fault }) => (
        <div key={id} className="error-banner__item" role="alert">
          <p>
            {faultMessage(fault.ExceptionName, fault.ExceptionUserText)}
            <HelpLink faultName={fault.ExceptionName} />
          </p>
          <button
            type="button"
            className="error-banner__close"
            aria-label={text.close}
            onClick={() => dismissApiError(id)}
          >
            <span aria-hidden="true">×</span>
          </button>
        </div>
      ))}
    </section>
  );
}

/** "Learn more" after a message whose fault has a support article (docs/requirements.md §8: KeyRevokeOverLimit). */
function HelpLink({ faultName }: { faultName: string }) {
  const href = FAULT_HELP_LINKS[faultName as FaultName];
  if (!href) return null;
  return (
    <>
      {' '}
      <a className="error-banner__link" href={href} target="_blank" rel="noreferrer">
        {text.learnMore}
      </a>
    </>
  );
}
