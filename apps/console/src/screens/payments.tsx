import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { FaultMessage } from '../components/fault-message';
import { Screen, Section } from '../components/screen';
import { Table } from '../components/table';
import { get } from '../lib/api';
import { formatMoney, formatTime } from '../lib/format';

/**
 * Finance's payments that did not match their checkout (ADR 0032): what was expected, what the
 * provider reported, and the customer, whose page holds the refund.
 */
export function PaymentsScreen() {
  const mismatches = useQuery({ queryKey: ['AdminPaymentMismatches'], queryFn: () => get('AdminPaymentMismatches') });
  return (
    <Screen title="Payments">
      <Section title="Payments that did not match their checkout" id="mismatches">
        <FaultMessage error={mismatches.error} />
        {mismatches.data && (
          <Table
            head={['Invoice tag', 'Customer', 'Expected', 'Received', 'Provider', 'Recorded']}
            empty="Every payment matched its checkout."
          >
            {mismatches.data.map((m) => (
              <tr key={m.EventId}>
                <th scope="row">
                  <code>{m.InvoiceTag}</code>
                </th>
                <td>
                  {m.Customer ? (
                    <Link to={`/customer?email=${encodeURIComponent(m.Customer)}`}>{m.Customer}</Link>
                  ) : (
                    'deleted account'
                  )}
                </td>
                <td className="number">{formatMoney(m.ExpectedAmountInCents, m.ExpectedCurrency)}</td>
                <td className="number">
                  {m.ReceivedAmountInCents === null || m.ReceivedCurrency === null
                    ? 'nothing'
                    : formatMoney(m.ReceivedAmountInCents, m.ReceivedCurrency)}
                </td>
                <td>{m.Provider}</td>
                <td>{formatTime(m.RecordedAt)}</td>
              </tr>
            ))}
          </Table>
        )}
      </Section>
    </Screen>
  );
}
