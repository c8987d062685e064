import { ApiFault } from '../lib/api';

/**
 * A call's fault as the service worded it (its ExceptionUserText), with the fields a bad input
 * names; anything else thrown is shown by its message.
 */
export function FaultMessage({ error }: { error: unknown }) {
  if (!error) return null;
  const fault = error instanceof ApiFault ? error : undefined;
  const text = fault ? fault.message : error instanceof Error ? error.message : String(error);
  const fields = fault?.is('RequestInvalid') ? fault.fault.ExceptionVariables : [];
  return (
    <div className="fault" role="alert">
      <p>{text}</p>
      {fields.length > 0 && (
        <ul>
          {fields.map((field) => (
            <li key={field.Key}>
              <code>{field.Key}</code>: {field.Value}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** What was done, said once where a screen reader hears it. */
export function Done({ children }: { children: React.ReactNode }) {
  return (
    <p className="done" role="status">
      {children}
    </p>
  );
}
