import {
  type CallResult,
  GRANT_MAX_VALID_DAYS,
  LICENSE_KEY_LENGTH,
  normalizeLicenseKey,
  OPERATOR_REFERENCE_MAX_LENGTH,
  refundableLicences,
  TOKEN_VALIDITY_MONTHS,
} from '@soundid/contracts';
import { useId, useState } from 'react';
import { ActionDialog, type DialogValues } from '../components/action-dialog';
import { post } from '../lib/api';
import { formatMoney } from '../lib/format';

type Page = CallResult<'AdminUser'>;
type Licence = Page['Licences'][number];
type Device = Licence['Devices'][number];
type Payment = Page['CardPayments'][number];
type StorefrontOrder = Page['StorefrontOrders'][number];

/** What an action tells the page when it is done: the sentence to show, and the page read again. */
export type Report = (message: string) => void;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

// ── Support: the account ──

export function UnlockSignIn({ email, report }: { email: string; report: Report }) {
  return (
    <ActionDialog
      label="Unlock sign-in"
      title="Unlock sign-in"
      description={`Clears the sign-in lockout of ${email}.`}
      confirm="Unlock"
      run={({ reason }) => post('AdminUnlockSignIn', { email, reason })}
      onDone={(r) => report(r.WasLocked ? 'Sign-in unlocked.' : 'Sign-in was not locked; nothing changed.')}
    />
  );
}

export function EndSessions({ email, report }: { email: string; report: Report }) {
  return (
    <ActionDialog
      label="End sessions"
      title="End every session"
      description={`Signs ${email} out everywhere: the portal and the desktop apps.`}
      confirm="End sessions"
      danger
      run={({ reason }) => post('AdminEndCustomerSessions', { email, reason })}
      onDone={(r) => report(`${plural(r.SessionsEnded, 'session')} ended.`)}
    />
  );
}

export function ResendVerification({ email, report }: { email: string; report: Report }) {
  return (
    <ActionDialog
      label="Resend verification"
      title="Resend the verification mail"
      description={`Mails a new verification link to ${email}.`}
      confirm="Send"
      run={({ reason }) => post('AdminResendVerification', { email, reason })}
      onDone={(r) => report(r.Sent ? 'Verification mail sent.' : 'The address is already verified; nothing sent.')}
    />
  );
}

// ── Support: licences and devices ──

export function DeactivateDevice({ device, product, report }: { device: Device; product: string; report: Report }) {
  return (
    <ActionDialog
      label="Deactivate"
      buttonName={`Deactivate ${device.Name}`}
      title={`Deactivate ${device.Name}`}
      description={`Frees the seat of ${device.Name} (${product}) without counting it in the customer's deactivation allowance.`}
      confirm="Deactivate"
      danger
      run={({ reason }) => post('AdminDeactivateDevice', { deviceId: device.Id, reason })}
      onDone={(r) => report(`${r.Device} deactivated (${r.Product}); not counted in the allowance.`)}
    />
  );
}

/** A machine reported lost or stolen and found (ADR 0050): it may activate again, taking a seat like any other. */
export function UndoLostReport({ device, report }: { device: Device; report: Report }) {
  return (
    <ActionDialog
      label="Undo lost report"
      buttonName={`Undo the lost report of ${device.Name}`}
      title={`Undo the lost report of ${device.Name}`}
      description={`${device.Name} was reported ${device.LostReport?.Reason ?? 'lost'}; it is refused for this licence until the report is undone. Undoing frees nothing: it takes a seat again when activated.`}
      confirm="Undo the report"
      run={({ reason }) => post('AdminUndoLostReport', { deviceId: device.Id, reason })}
      onDone={(r) => report(`${r.Device} (${r.Product}) may use its licence again.`)}
    />
  );
}

/** The licence key in full, typed by the operator: the page shows only its last group. */
function FullKeyField({ licence }: { licence: Licence }) {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>Licence key in full</label>
      <input
        id={id}
        name="key"
        autoComplete="off"
        spellCheck={false}
        required
        aria-describedby={`${id}-hint`}
        className="mono"
      />
      <p id={`${id}-hint`} className="hint">
        The key ending in {licence.KeyEnding}, as the customer has it.
      </p>
    </>
  );
}

const keyCheck =
  (licence: Licence) =>
  ({ key = '' }: Record<string, string>) =>
    normalizeLicenseKey(key).length !== LICENSE_KEY_LENGTH || !normalizeLicenseKey(key).endsWith(licence.KeyEnding)
      ? `Type the whole key ending in ${licence.KeyEnding}.`
      : undefined;

export function MoveLicence({ licence, report }: { licence: Licence; report: Report }) {
  const id = useId();
  return (
    <ActionDialog
      label="Move to another account"
      buttonName={`Move licence …${licence.KeyEnding} to another account`}
      title={`Move the licence …${licence.KeyEnding}`}
      description="The key, its seats and its deactivation history go to the other account."
      confirm="Move licence"
      danger
      check={keyCheck(licence)}
      run={({ key = '', toEmail = '', reason }) => post('AdminMoveLicence', { key, toEmail: toEmail.trim(), reason })}
      onDone={(r) => report(`${r.Product} moved to ${r.To}.`)}
    >
      <FullKeyField licence={licence} />
      <label htmlFor={id}>To the account of (e-mail)</label>
      <input id={id} name="toEmail" type="email" autoComplete="off" required />
    </ActionDialog>
  );
}

export function ResetDeactivations({ licence, report }: { licence: Licence; report: Report }) {
  return (
    <ActionDialog
      label="Reset deactivations"
      buttonName={`Reset deactivations of licence …${licence.KeyEnding}`}
      title={`Reset the deactivations of …${licence.KeyEnding}`}
      description={`Gives the licence its whole allowance back (${licence.DeactivationsUsed} of ${licence.DeactivationsAllowed} used); the history is kept.`}
      confirm="Reset"
      check={keyCheck(licence)}
      run={({ key = '', reason }) => post('AdminResetDeactivations', { key, reason })}
      onDone={(r) => report(`${plural(r.Forgiven, 'deactivation')} forgiven on ${r.Product} …${r.KeyEnding}.`)}
    />
  );
}

// ── Finance: tokens and payments ──

/**
 * The reference that makes a change happen once: the ticket the operator types, or else one made
 * when the dialog opened (the dialog's fields mount on each opening), so a double submit or a
 * retry after a lost answer within one opening is applied once, and the next opening is a new
 * change. The service keys the change, and a refund the provider's idempotency key, on it.
 */
function ReferenceField({ label = 'Reference (optional)' }: { label?: string }) {
  const id = useId();
  const [attempt] = useState(() => crypto.randomUUID());
  return (
    <>
      <label htmlFor={`${id}-reference`}>{label}</label>
      <input
        id={`${id}-reference`}
        name="reference"
        maxLength={OPERATOR_REFERENCE_MAX_LENGTH}
        aria-describedby={`${id}-reference-hint`}
      />
      <p id={`${id}-reference-hint`} className="hint">
        A ticket id: the same reference is applied once.
      </p>
      <input type="hidden" name="attempt" value={attempt} />
    </>
  );
}

/** The typed reference, or this opening's own. */
const referenceOf = ({ reference = '', attempt = '' }: DialogValues) => reference.trim() || attempt;

function TokenFields({ grant }: { grant: boolean }) {
  const id = useId();
  return (
    <>
      <label htmlFor={`${id}-amount`}>Tokens</label>
      <input id={`${id}-amount`} name="amount" type="number" min={1} step={1} inputMode="numeric" required />
      {grant && (
        <>
          <label htmlFor={`${id}-days`}>Valid for days (optional: {TOKEN_VALIDITY_MONTHS} months unless set)</label>
          <input
            id={`${id}-days`}
            name="expiresInDays"
            type="number"
            min={1}
            max={GRANT_MAX_VALID_DAYS}
            step={1}
            inputMode="numeric"
          />
        </>
      )}
      <ReferenceField />
    </>
  );
}

const tokenBody = (email: string, values: DialogValues) => {
  const days = (values.expiresInDays ?? '').trim();
  return {
    email,
    amount: Number(values.amount ?? ''),
    reference: referenceOf(values),
    reason: values.reason,
    ...(days ? { expiresInDays: Number(days) } : {}),
  };
};
const amountCheck = ({ amount = '', expiresInDays = '' }: Record<string, string>) => {
  if (!(Number.isInteger(Number(amount)) && Number(amount) > 0)) return 'Give a whole number of tokens above 0.';
  const days = Number(expiresInDays.trim() || '1');
  return Number.isInteger(days) && days >= 1 && days <= GRANT_MAX_VALID_DAYS
    ? undefined
    : `Give the days as a whole number from 1 to ${GRANT_MAX_VALID_DAYS}, or leave them empty.`;
};

/** Tokens granted or withdrawn: the same fields, the same check, the answer's balance. */
function TokenChange({
  email,
  report,
  call,
}: {
  email: string;
  report: Report;
  call: 'AdminGrantTokens' | 'AdminWithdrawTokens';
}) {
  const grant = call === 'AdminGrantTokens';
  return (
    <ActionDialog
      label={grant ? 'Grant tokens' : 'Withdraw tokens'}
      title={grant ? 'Grant tokens' : 'Withdraw tokens'}
      description={
        grant
          ? `Credits voice AI tokens to ${email} (valid ${TOKEN_VALIDITY_MONTHS} months).`
          : `Takes tokens back from ${email}, oldest lots first, never below zero.`
      }
      confirm={grant ? 'Grant' : 'Withdraw'}
      danger={!grant}
      check={amountCheck}
      run={async (values) => {
        const body = tokenBody(email, values);
        if (grant) {
          const r = await post('AdminGrantTokens', body);
          return { done: r.Credited, amount: r.Amount, balance: r.TokenBalance };
        }
        const r = await post('AdminWithdrawTokens', body);
        return { done: r.Withdrawn, amount: r.Amount, balance: r.TokenBalance };
      }}
      onDone={(r) =>
        report(
          r.done
            ? `${plural(r.amount, 'token')} ${grant ? 'granted' : 'withdrawn'}; balance ${r.balance}.`
            : `Already ${grant ? 'granted' : 'withdrawn'} under this reference; balance ${r.balance}.`,
        )
      }
    >
      <TokenFields grant={grant} />
    </ActionDialog>
  );
}

export const GrantTokens = (props: { email: string; report: Report }) => (
  <TokenChange {...props} call="AdminGrantTokens" />
);
export const WithdrawTokens = (props: { email: string; report: Report }) => (
  <TokenChange {...props} call="AdminWithdrawTokens" />
);

export function RefundPayment({ payment, report }: { payment: Payment; report: Report }) {
  const id = useId();
  const left = payment.AmountInCents - payment.RefundedInCents;
  return (
    <ActionDialog
      label="Refund"
      buttonName={`Refund payment ${payment.InvoiceTag}`}
      title={`Refund payment ${payment.InvoiceTag}`}
      description={`Refunds through the payment provider; what the payment bought is taken back when the provider confirms. ${formatMoney(left, payment.Currency)} can be refunded.`}
      confirm="Refund"
      danger
      check={({ amount = '' }) => {
        if (!amount.trim()) return undefined;
        const cents = Math.round(Number(amount) * 100);
        return cents > 0 && cents <= left
          ? undefined
          : `Give an amount above 0 and at most ${formatMoney(left, payment.Currency)}.`;
      }}
      run={(values) => {
        const amount = values.amount ?? '';
        return post('AdminRefundPayment', {
          invoiceTag: payment.InvoiceTag,
          ...(amount.trim() ? { amountInCents: Math.round(Number(amount) * 100) } : {}),
          reference: referenceOf(values),
          reason: values.reason,
        });
      }}
      onDone={(r) =>
        report(
          `Refund of ${payment.InvoiceTag} sent: ${formatMoney(r.RefundedInCents, payment.Currency)} of ${formatMoney(r.AmountInCents, payment.Currency)} refunded.`,
        )
      }
    >
      <label htmlFor={id}>Amount in {payment.Currency.toUpperCase()} (empty: all that is left)</label>
      <input id={id} name="amount" type="number" min={0.01} step={0.01} inputMode="decimal" />
      <ReferenceField />
    </ActionDialog>
  );
}

/**
 * A storefront order refunded through the store (ADR 0059): the store refunds the money, and
 * its refund takes the licences back (their keys revoked, their devices signed out).
 */
export function RefundStorefrontOrder({ order, report }: { order: StorefrontOrder; report: Report }) {
  const id = useId();
  const left = refundableLicences(order);
  return (
    <ActionDialog
      label="Refund"
      buttonName={`Refund order ${order.Name}`}
      title={`Refund order ${order.Name}`}
      description={`Refunds through the store, which pays the money back; the refunded licences are taken back at once (their keys stop working, their devices are signed out). ${plural(left, 'licence')} can be refunded.`}
      confirm="Refund"
      danger
      check={({ quantity = '' }) => {
        if (!quantity.trim()) return undefined;
        const n = Number(quantity);
        return Number.isInteger(n) && n > 0 && n <= left
          ? undefined
          : `Give a whole number of licences from 1 to ${left}, or leave it empty.`;
      }}
      run={(values) => {
        const quantity = (values.quantity ?? '').trim();
        return post('AdminRefundStorefrontOrder', {
          order: order.OrderId,
          ...(quantity ? { quantity: Number(quantity) } : {}),
          reference: referenceOf(values),
          reason: values.reason,
        });
      }}
      onDone={(r) =>
        report(`Order ${r.Name} refunded: ${r.RefundedQuantity} of ${plural(r.Quantity, 'licence')} refunded in all.`)
      }
    >
      <label htmlFor={id}>Licences (empty: all {left} left)</label>
      <input id={id} name="quantity" type="number" min={1} max={left} step={1} inputMode="numeric" />
      <ReferenceField />
    </ActionDialog>
  );
}
