import { type CallResult, formatAddress, refundableLicences } from '@soundid/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Done, FaultMessage } from '../components/fault-message';
import { Screen, Section } from '../components/screen';
import { Empty, Facts, Table, yesNo } from '../components/table';
import { get } from '../lib/api';
import { formatMoney, formatTime } from '../lib/format';
import { useCan } from '../lib/session';
import {
  DeactivateDevice,
  EndSessions,
  GrantTokens,
  MoveLicence,
  RefundPayment,
  RefundStorefrontOrder,
  type Report,
  ResendVerification,
  ResetDeactivations,
  UndoLostReport,
  UnlockSignIn,
  WithdrawTokens,
} from './customer-actions';

type Page = CallResult<'AdminUser'>;

/**
 * A customer's page (GET /api/admin/user?email=): everything support and finance see of the
 * account, never a secret, and the actions the operator's roles allow, each behind a reason.
 */
export function CustomerScreen() {
  const [params] = useSearchParams();
  const email = params.get('email') ?? '';
  const client = useQueryClient();
  const [done, setDone] = useState<string>();
  const page = useQuery({
    queryKey: ['AdminUser', email],
    queryFn: () => get('AdminUser', { email }),
    enabled: email !== '',
  });
  const report: Report = (message) => {
    setDone(message);
    void client.invalidateQueries({ queryKey: ['AdminUser', email] });
  };

  return (
    <Screen title={email || 'Customer'} actions={<Link to="/customers">Back to the search</Link>}>
      {done && <Done>{done}</Done>}
      {page.isPending && email && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      <FaultMessage error={page.error} />
      {page.data && <CustomerPage page={page.data} report={report} />}
    </Screen>
  );
}

function CustomerPage({ page, report }: { page: Page; report: Report }) {
  const can = useCan();
  const email = page.Email;
  const supportActions = [
    can('AdminUnlockSignIn') && <UnlockSignIn key="unlock" email={email} report={report} />,
    can('AdminEndCustomerSessions') && <EndSessions key="end" email={email} report={report} />,
    can('AdminResendVerification') && !page.EmailVerified && (
      <ResendVerification key="resend" email={email} report={report} />
    ),
  ].filter(Boolean);

  return (
    <>
      <Section title="Account" id="account">
        <Facts
          rows={[
            ['Customer id', <code key="id">{page.Id}</code>],
            ['E-mail verified', yesNo(page.EmailVerified)],
            ['Password set', yesNo(page.HasPassword)],
            ['Social sign-in', page.SocialProviders.join(', ') || 'None'],
            ['Since', formatTime(page.CreatedAt)],
            ['Sign-in locked', page.SignInLocked ? 'Yes: too many failed sign-ins' : 'No'],
            ['Active sessions', String(page.ActiveSessions)],
            // As the portal's profile shows it (formatAddress): the State included, the country by name.
            ['Address', formatAddress(page.Profile)],
          ]}
        />
        {supportActions.length > 0 && <div className="actions">{supportActions}</div>}
      </Section>

      <Section title="Second factor" id="second-factor">
        <Facts
          rows={[
            ['Authenticator app', page.SecondFactor.Totp ? 'On' : 'Off'],
            ['Recovery codes left', String(page.SecondFactor.RecoveryCodesLeft)],
            ['Passkeys', String(page.SecondFactor.Passkeys)],
          ]}
        />
      </Section>

      <Section title="Sessions" id="sessions">
        <Table head={['Device', 'Signed in', 'Last seen', 'Expires']} empty="No live session.">
          {page.Sessions.map((s) => (
            <tr key={s.Id}>
              <th scope="row">{s.Device}</th>
              <td>{formatTime(s.CreatedAt)}</td>
              <td>{formatTime(s.LastSeenAt)}</td>
              <td>{formatTime(s.ExpiresAt)}</td>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title="Licences and devices" id="licences">
        {page.Licences.length === 0 && <Empty>No licence.</Empty>}
        {page.Licences.map((licence) => (
          <article
            key={`${licence.Product}-${licence.KeyEnding}`}
            className="licence"
            aria-labelledby={`licence-${licence.KeyEnding}`}
          >
            <h3 id={`licence-${licence.KeyEnding}`}>
              {licence.Product} <code>…{licence.KeyEnding}</code>
            </h3>
            <Facts
              rows={[
                ['Registered', formatTime(licence.RegisteredAt)],
                ['Seats', String(licence.Seats)],
                ['Deactivations used', `${licence.DeactivationsUsed} of ${licence.DeactivationsAllowed}`],
                // Offers to pass a key on, still open (ADR 0054).
                ...(licence.PendingTransfers ?? []).map((offer): [string, string] => [
                  `Offered …${offer.KeyEnding}`,
                  `to ${offer.ToEmail} on ${formatTime(offer.CreatedAt)}, until ${formatTime(offer.ExpiresAt)}`,
                ]),
              ]}
            />
            <Table
              empty="No device was ever activated."
              caption={`Devices of ${licence.Product} …${licence.KeyEnding}`}
              head={[
                'Device',
                'Machine id',
                'Activated',
                'Last seen',
                'State',
                ...(can('AdminDeactivateDevice') || can('AdminUndoLostReport') ? [''] : []),
              ]}
            >
              {licence.Devices.map((device) => (
                <tr key={device.Id}>
                  <th scope="row">{device.Name}</th>
                  <td>
                    <code>{device.MachineId}</code>
                  </td>
                  <td>{formatTime(device.ActivatedAt)}</td>
                  <td>{lastSeenOf(device)}</td>
                  <td>{stateOf(device)}</td>
                  {(can('AdminDeactivateDevice') || can('AdminUndoLostReport')) && (
                    <td>
                      {!device.DeactivatedAt && can('AdminDeactivateDevice') && (
                        <DeactivateDevice device={device} product={licence.Product} report={report} />
                      )}
                      {device.LostReport?.Standing && can('AdminUndoLostReport') && (
                        <UndoLostReport device={device} report={report} />
                      )}
                    </td>
                  )}
                </tr>
              ))}
            </Table>
            {(can('AdminMoveLicence') || can('AdminResetDeactivations')) && (
              <div className="actions">
                {can('AdminResetDeactivations') && <ResetDeactivations licence={licence} report={report} />}
                {can('AdminMoveLicence') && <MoveLicence licence={licence} report={report} />}
              </div>
            )}
          </article>
        ))}
      </Section>

      <Section title="Trials" id="trials">
        <Table head={['Product', 'Started', 'Ends']} empty="No trial.">
          {page.Trials.map((t) => (
            <tr key={`${t.Product}-${t.StartedAt}`}>
              <th scope="row">{t.Product}</th>
              <td>{formatTime(t.StartedAt)}</td>
              <td>{formatTime(t.EndsAt)}</td>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title="Voice AI tokens" id="tokens">
        <Facts rows={[['Balance', String(page.TokenBalance)]]} />
        {(can('AdminGrantTokens') || can('AdminWithdrawTokens')) && (
          <div className="actions">
            {can('AdminGrantTokens') && <GrantTokens email={email} report={report} />}
            {can('AdminWithdrawTokens') && <WithdrawTokens email={email} report={report} />}
          </div>
        )}
        <h3>Lots</h3>
        <Table head={['Source', 'Amount', 'Left', 'Credited', 'Expires', 'Reference']} empty="No token lot.">
          {page.TokenLots.map((lot) => (
            <tr key={`${lot.CreatedAt}-${lot.Source}-${lot.Amount}`}>
              <th scope="row">{lot.Source}</th>
              <td className="number">{lot.Amount}</td>
              <td className="number">{lot.Remaining}</td>
              <td>{formatTime(lot.CreatedAt)}</td>
              <td>{formatTime(lot.ExpiresAt)}</td>
              <td>{lot.Reference ?? '—'}</td>
            </tr>
          ))}
        </Table>
        <h3>Recent use</h3>
        <Table head={['When', 'Type', 'Tokens', 'Seconds']} empty="No tokens spent.">
          {page.TokenUsage.map((use) => (
            <tr key={`${use.At}-${use.Type}-${use.Tokens}`}>
              <th scope="row">{formatTime(use.At)}</th>
              <td>{use.Type}</td>
              <td className="number">{use.Tokens}</td>
              <td className="number">{use.Seconds}</td>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title="Card payments" id="payments">
        <Table
          empty="No card payment."
          head={[
            'Invoice tag',
            'Item',
            'Amount',
            'Refunded',
            'Status',
            'When',
            ...(can('AdminRefundPayment') ? [''] : []),
          ]}
        >
          {page.CardPayments.map((payment) => (
            <tr key={payment.InvoiceTag}>
              <th scope="row">
                <code>{payment.InvoiceTag}</code>
              </th>
              <td>{payment.Item}</td>
              <td className="number">{formatMoney(payment.AmountInCents, payment.Currency)}</td>
              <td className="number">{formatMoney(payment.RefundedInCents, payment.Currency)}</td>
              <td>{payment.Status}</td>
              <td>{formatTime(payment.CreatedAt)}</td>
              {can('AdminRefundPayment') && (
                <td>
                  {payment.RefundedInCents < payment.AmountInCents && (
                    <RefundPayment payment={payment} report={report} />
                  )}
                </td>
              )}
            </tr>
          ))}
        </Table>
      </Section>

      <Section title="Storefront orders" id="orders">
        <Table
          head={[
            'Order',
            'Status',
            'Quantity',
            'Refunded',
            'Placed',
            'Keys',
            ...(can('AdminRefundStorefrontOrder') ? [''] : []),
          ]}
          empty="No storefront order."
        >
          {page.StorefrontOrders.map((order) => (
            <tr key={order.OrderId}>
              <th scope="row">
                {order.Name}
                {order.IsTest ? ' (test)' : ''}
              </th>
              <td>{order.Status}</td>
              <td className="number">{order.Quantity}</td>
              <td className="number">{order.RefundedQuantity}</td>
              <td>{formatTime(order.CreatedAt)}</td>
              <td>
                <ul className="plain">
                  {order.Keys.map((k) => (
                    <li key={k.Key}>
                      <code>{k.Key}</code>
                      {k.Revoked ? ' revoked' : k.RegisteredTo ? ` → ${k.RegisteredTo}` : ' not registered'}
                    </li>
                  ))}
                </ul>
              </td>
              {can('AdminRefundStorefrontOrder') && (
                <td>{refundableLicences(order) > 0 && <RefundStorefrontOrder order={order} report={report} />}</td>
              )}
            </tr>
          ))}
        </Table>
      </Section>

      <Section title="Mails" id="mails">
        <Table head={['Subject', 'When', 'Status']} empty="No mail sent.">
          {page.Mails.map((mail) => (
            <tr key={`${mail.At}-${mail.Subject}`}>
              <th scope="row">{mail.Subject}</th>
              <td>{formatTime(mail.At)}</td>
              <td>{mail.Status}</td>
            </tr>
          ))}
        </Table>
      </Section>

      <Section title="Audit entries" id="audit">
        <Table head={['When', 'Operator', 'Action', 'Outcome', 'Reason']} empty="No operator has changed this account.">
          {page.Audit.map((entry) => (
            <tr key={entry.Seq}>
              <th scope="row">{formatTime(entry.At)}</th>
              <td>{entry.Operator ?? '—'}</td>
              <td>{entry.Action}</td>
              <td>{entry.Outcome}</td>
              <td>{entry.Reason ?? '—'}</td>
            </tr>
          ))}
        </Table>
      </Section>
    </>
  );
}

type CustomerDevice = CallResult<'AdminUser'>['Licences'][number]['Devices'][number];

/** When the app last checked in, with what it said of itself (ADR 0049); '—' never. */
function lastSeenOf(device: CustomerDevice): string {
  if (!device.LastSeenAt) return '—';
  const app = [device.AppVersion, device.Os].filter(Boolean).join(', ');
  return `${formatTime(device.LastSeenAt)}${app ? ` (${app})` : ''}`;
}

/** Active, or when and why it left its seat; a lost or stolen report says whether it still stands (ADR 0050). */
function stateOf(device: CustomerDevice): string {
  if (!device.DeactivatedAt) return 'Active';
  const ended = `Deactivated ${formatTime(device.DeactivatedAt)}${device.DeactivationCause ? ` (${device.DeactivationCause})` : ''}`;
  const lost = device.LostReport;
  if (!lost) return ended;
  const note = lost.Note ? `: “${lost.Note}”` : '';
  return `${ended}; reported ${lost.Reason}${note}; ${lost.Standing ? 'refused until undone' : 'undone, may activate again'}`;
}
