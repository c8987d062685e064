import { voiceAiBuyText } from '@soundid/contracts/ui-text';
import './token-status.css';

/** The customer's token status and its warning (GetProducts TokenStatus, StatusWarning). */
export function TokenStatus({ status, warning }: { status: string; warning: string | null }) {
  return (
    <div className="token-status">
      <p>
        <strong>{voiceAiBuyText.tokenStatusLabel}: </strong>
        {status}
      </p>
      {warning && (
        <p className="token-status__warning" role="note">
          {warning}
        </p>
      )}
    </div>
  );
}
