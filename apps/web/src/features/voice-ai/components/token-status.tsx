import type { ExpiringTokens } from '@soundid/contracts';
import { ExpiringTokensList } from '../../../components/expiring-tokens';
import './token-status.css';

/**
 * The customer's token line (GetProducts TokenStatus, sent whole: the balance once, its runway),
 * its warning, and the lots that expire soon with their dates (ADR 0056).
 */
export function TokenStatus({
  status,
  warning,
  expiring,
}: {
  status: string;
  warning: string | null;
  expiring: readonly ExpiringTokens[];
}) {
  return (
    <div className="token-status">
      <p className="token-status__line">{status}</p>
      {warning && (
        <p className="token-status__warning" role="note">
          {warning}
        </p>
      )}
      <ExpiringTokensList expiring={expiring} />
    </div>
  );
}
