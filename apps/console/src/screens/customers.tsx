import { CUSTOMER_SEARCH_KINDS, CUSTOMER_SEARCH_MIN_LENGTH, type CustomerSearchKind } from '@soundid/contracts';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId } from 'react';
import { Link, useSearchParams } from 'react-router';
import { FaultMessage } from '../components/fault-message';
import { Screen } from '../components/screen';
import { Table, yesNo } from '../components/table';
import { get } from '../lib/api';
import { fieldText } from '../lib/form';
import { formatTime } from '../lib/format';

const KIND_LABELS: Record<CustomerSearchKind, string> = {
  email: 'E-mail address (beginning)',
  key: 'Licence key (in full or its last group)',
  device: 'Device name or machine id',
  order: 'Storefront order number',
  invoice: 'Invoice tag',
};

const isKind = (value: string | null): value is CustomerSearchKind =>
  (CUSTOMER_SEARCH_KINDS as readonly string[]).includes(value ?? '');

/** The customer search (AdminSearchCustomers): the query in the address, so Back keeps the hits. */
export function CustomersScreen() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const by = params.get('by');
  const kind = isKind(by) ? by : undefined;
  const id = useId();
  const search = useQuery({
    queryKey: ['AdminSearchCustomers', q, kind],
    queryFn: () => get('AdminSearchCustomers', { q, by: kind }),
    enabled: q.trim().length >= CUSTOMER_SEARCH_MIN_LENGTH,
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    next.set('q', fieldText(form, 'q'));
    const chosen = String(form.get('by') ?? '');
    if (chosen) next.set('by', chosen);
    setParams(next);
  };

  return (
    <Screen title="Customers">
      <search>
        <form onSubmit={submit} className="panel search" key={`${q}|${kind ?? ''}`}>
          <div className="field grow">
            <label htmlFor={`${id}-q`}>Find a customer</label>
            <input
              id={`${id}-q`}
              name="q"
              type="search"
              defaultValue={q}
              required
              minLength={CUSTOMER_SEARCH_MIN_LENGTH}
              aria-describedby={`${id}-q-hint`}
            />
            <p id={`${id}-q-hint`} className="hint">
              An e-mail address or its beginning, a licence key or its last group, a device name or machine id, an order
              number, an invoice tag ({CUSTOMER_SEARCH_MIN_LENGTH} characters at least).
            </p>
          </div>
          <div className="field">
            <label htmlFor={`${id}-by`}>Look in</label>
            <select id={`${id}-by`} name="by" defaultValue={kind ?? ''}>
              <option value="">Every kind</option>
              {CUSTOMER_SEARCH_KINDS.map((k) => (
                <option key={k} value={k}>
                  {KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="field end">
            <button type="submit" className="primary">
              Search
            </button>
          </div>
        </form>
      </search>
      {search.isFetching && (
        <p className="loading" role="status">
          Searching…
        </p>
      )}
      <FaultMessage error={search.error} />
      {search.data && (
        <section aria-labelledby={`${id}-hits`} className="panel">
          <h2 id={`${id}-hits`}>
            {search.data.Customers.length === 0
              ? 'No customer matches'
              : `${search.data.Customers.length}${search.data.More ? '+' : ''} matching`}
          </h2>
          {search.data.More && <p className="hint">More customers match: narrow the search to see them.</p>}
          {search.data.Customers.length > 0 && (
            <Table head={['E-mail', 'Name', 'Verified', 'Since', 'Matched']}>
              {search.data.Customers.map((hit) => (
                <tr key={hit.Id}>
                  <th scope="row">
                    <Link to={`/customer?email=${encodeURIComponent(hit.Email)}`}>{hit.Email}</Link>
                  </th>
                  <td>{hit.Name ?? '—'}</td>
                  <td>{yesNo(hit.EmailVerified)}</td>
                  <td>{formatTime(hit.CreatedAt)}</td>
                  <td>
                    {KIND_LABELS[hit.MatchedBy].replace(/ \(.*\)$/, '')}: <code>{hit.Matched}</code>
                  </td>
                </tr>
              ))}
            </Table>
          )}
        </section>
      )}
    </Screen>
  );
}
