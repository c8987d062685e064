import { historyText } from '@soundid/contracts/ui-text';

/**
 * A purchase row's receipt (docs/decisions/0058-receipts.md): the service's PDF, which the browser
 * saves (the answer is an attachment; the session cookie goes with the followed link). Only an
 * http(s) URL is linked.
 */
export function ReceiptLink({ url, orderDate }: { url: string | undefined; orderDate: string }) {
  if (!url || !/^https?:\/\//.test(url)) return null;
  return (
    <a href={url} download aria-label={historyText.receiptLinkLabel(orderDate)}>
      {historyText.receiptLink}
    </a>
  );
}
