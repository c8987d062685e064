import { licenceMessages } from '@soundid/contracts';
import { postCheckoutText } from '@soundid/contracts/ui-text';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { getPaymentStatus } from '../api/get-payment-status';
import { type PaymentOutcome, pollPaymentStatus } from '../payment-status';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The result of a card checkout (docs/requirements.md §2): Loading while the status is polled, then
 * Successful, Failed or Unknown. Without an invoice tag there is nothing to check: success.
 */
export function PostCheckoutScreen() {
  const [params] = useSearchParams();
  const invoiceTag = params.get('invoice_tag');
  const [outcome, setOutcome] = useState<PaymentOutcome | 'loading'>(() =>
    invoiceTag ? 'loading' : { status: 'successful', analytics: null },
  );

  useEffect(() => {
    if (!invoiceTag) return;
    let cancelled = false;
    void pollPaymentStatus(
      () => getPaymentStatus(invoiceTag),
      sleep,
      () => cancelled,
    ).then((result) => {
      if (!cancelled) setOutcome(result);
    });
    return () => {
      cancelled = true;
    };
  }, [invoiceTag]);

  const t = postCheckoutText;
  if (outcome === 'loading') {
    return (
      <Page heading={t.loading}>
        <Spinner label={t.loading} />
      </Page>
    );
  }
  const back = (
    <p>
      <Link to="/products">{licenceMessages.toProducts}</Link>
    </p>
  );
  if (outcome.status === 'failed') {
    return (
      <Page heading={t.failedTitle}>
        <p>{t.failedText}</p>
        {back}
      </Page>
    );
  }
  if (outcome.status === 'unknown') {
    return (
      <Page heading={t.unknownTitle}>
        <p>{t.unknownText}</p>
        {back}
      </Page>
    );
  }
  return (
    <Page heading={t.successTitle}>
      <p>{t.successThanks}</p>
      <p>{t.successInvoice}</p>
      <p>{t.successTokens}</p>
      <h2>{t.stepsHeading}</h2>
      <ol>
        {t.steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
      {back}
    </Page>
  );
}
