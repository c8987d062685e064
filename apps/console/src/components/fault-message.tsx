import { useEffect, useRef } from 'react';
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

/**
 * What was done, said once where a screen reader hears it. It takes the focus when its message
 * appears: the button that opened the confirmation is often gone with what it changed (a
 * refunded payment, a deactivated device), and the focus must not fall back to the page's start
 * (WCAG 2.4.3; the WAI-ARIA dialog pattern's rule for an opener that no longer exists).
 */
export function Done({ children }: { children: React.ReactNode }) {
  const message = useRef<HTMLParagraphElement>(null);
  const text = typeof children === 'string' ? children : undefined;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new message (its text) moves the focus again.
  useEffect(() => message.current?.focus(), [text]);
  return (
    <p ref={message} className="done" role="status" tabIndex={-1}>
      {children}
    </p>
  );
}
