import { faultMessage } from '@soundid/contracts';
import { checkoutText } from '@soundid/contracts/ui-text';
import { type FormEvent, useEffect, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { isApiError, isFault } from '../../../lib/api-errors';
import { useSandboxCheckoutSession } from '../api/get-sandbox-checkout-session';
import { usePaySandboxCheckout } from '../api/pay-sandbox-checkout';
import type { CheckoutWidgetProps } from './stripe-embedded-checkout';

/** 4242424242424242 → 4242 4242 4242 4242 */
const groupDigits = (number: string) => number.replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The sandbox's card form (no STRIPE_*, never in production), in the shape of Stripe's:
 * card number, expiry, CVC and a pay button, with the test cards it takes. Paid, or declined,
 * the customer goes on to the post-checkout screen, which asks the service how it ended
 * (a decline there is 'Payment unsuccessful'; ADR 0012). A card the sandbox does not know, or a
 * past expiry, is answered here.
 */
export function SandboxCardForm({ clientSecret, onReady, onFailed, onFinished }: CheckoutWidgetProps) {
  const sessionQuery = useSandboxCheckoutSession(clientSecret);
  const session = sessionQuery.data;
  const [card, setCard] = useState({ cardNumber: '', expiry: '', cvc: '' });
  const pay = usePaySandboxCheckout(clientSecret);

  useEffect(() => {
    if (sessionQuery.isError) onFailed();
    else if (session?.Status === 'complete') onFinished();
    else if (session) onReady();
  }, [session, sessionQuery.isError, onReady, onFailed, onFinished]);

  if (!session || session.Status === 'complete') return null;
  if (session.Status === 'expired') {
    return (
      <FormMessage tone="error">
        <p>{faultMessage('CheckoutSessionExpired')}</p>
      </FormMessage>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (pay.isPending) return;
    pay.mutate(card, {
      onSuccess: onFinished,
      onError: (error) => {
        if (isFault(error, 'CardDeclined')) onFinished();
      },
    });
  };
  const error = pay.error && !isFault(pay.error, 'CardDeclined') ? pay.error : undefined;
  const field = (name: keyof typeof card) => ({
    value: card[name],
    onChange: (e: { target: { value: string } }) => setCard((c) => ({ ...c, [name]: e.target.value })),
    required: true,
  });

  return (
    <div className="sandbox-checkout">
      <p className="sandbox-checkout__notice">{checkoutText.sandboxNotice}</p>
      <h2 className="sandbox-checkout__heading">{checkoutText.testCardsHeading}</h2>
      <ul className="sandbox-checkout__cards">
        {(Object.keys(checkoutText.testCardOutcomes) as (keyof typeof checkoutText.testCardOutcomes)[]).map((key) => (
          <li key={key}>
            <code>{groupDigits(session.TestCards[key])}</code>: {checkoutText.testCardOutcomes[key]}
          </li>
        ))}
      </ul>
      <p className="field__hint">{checkoutText.testCardHint}</p>
      <form className="form card" onSubmit={submit} noValidate>
        <TextField label={checkoutText.email} value={session.Email} readOnly autoComplete="email" />
        <TextField
          label={checkoutText.cardNumber}
          inputMode="numeric"
          autoComplete="cc-number"
          maxLength={23}
          {...field('cardNumber')}
        />
        <div className="form form--grid">
          <TextField label={checkoutText.expiry} autoComplete="cc-exp" maxLength={7} {...field('expiry')} />
          <TextField
            label={checkoutText.cvc}
            inputMode="numeric"
            autoComplete="cc-csc"
            maxLength={4}
            {...field('cvc')}
          />
        </div>
        {error && (
          <FormMessage tone="error">
            <p>{isApiError(error) ? error.message : faultMessage('Unknown')}</p>
          </FormMessage>
        )}
        <div className="form__actions">
          <Button type="submit" isBusy={pay.isPending} disabled={pay.isPending}>
            {checkoutText.pay(session.PriceText)}
          </Button>
        </div>
      </form>
    </div>
  );
}
