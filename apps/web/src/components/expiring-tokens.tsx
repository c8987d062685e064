import { type ExpiringTokens, tokenOutlookText } from '@soundid/contracts';
import './expiring-tokens.css';

/** "1,200 tokens expire on 3 Mar 2027", a line per lot that expires soon (the buy page, Licenses & Devices). */
export function ExpiringTokensList({ expiring }: { expiring: readonly ExpiringTokens[] }) {
  if (expiring.length === 0) return null;
  return (
    <ul className="token-expiring" aria-label={tokenOutlookText.expiringLabel}>
      {expiring.map((lot) => (
        <li key={`${lot.ExpiryDate}-${lot.Tokens}`}>{tokenOutlookText.expiresOn(lot.Tokens, lot.ExpiryDate)}</li>
      ))}
    </ul>
  );
}
