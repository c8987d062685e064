import { AUDIT_PAGE_SIZE, type CallBody } from '@soundid/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Done, FaultMessage } from '../components/fault-message';
import { Screen } from '../components/screen';
import { Table } from '../components/table';
import { post } from '../lib/api';
import { fieldText } from '../lib/form';
import { formatTime } from '../lib/format';
import { useCan } from '../lib/session';

type Filters = Omit<CallBody<'SearchAudit'>, 'before'>;

/** A `datetime-local` value (the operator's zone) as ISO 8601, or nothing. */
const isoOf = (value: FormDataEntryValue | null): string | undefined => {
  const text = String(value ?? '');
  if (!text) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
};

/**
 * The audit trail (SearchAudit, ADR 0045): newest first, AUDIT_PAGE_SIZE a page, by operator,
 * customer, action and time; an admin proves its hash chain (VerifyAudit).
 */
export function AuditScreen() {
  const id = useId();
  const can = useCan();
  const [filters, setFilters] = useState<Filters>({});
  // The `before` of each page shown so far: the last is the current page's.
  const [cursors, setCursors] = useState<(number | undefined)[]>([undefined]);
  const before = cursors[cursors.length - 1];
  const search = useQuery({
    queryKey: ['SearchAudit', filters, before],
    queryFn: () => post('SearchAudit', { ...filters, ...(before ? { before } : {}) }),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next: Filters = {};
    const operator = fieldText(form, 'operator');
    const customer = fieldText(form, 'customer');
    const action = fieldText(form, 'action');
    const from = isoOf(form.get('from'));
    const to = isoOf(form.get('to'));
    if (operator) next.operator = operator;
    if (customer) next.customer = customer;
    if (action) next.action = action;
    if (from) next.from = from;
    if (to) next.to = to;
    setFilters(next);
    setCursors([undefined]);
  };

  const entries = search.data?.Entries ?? [];
  const last = entries[entries.length - 1];
  return (
    <Screen title="Audit">
      {can('VerifyAudit') && <VerifyAudit />}
      <form onSubmit={submit} className="panel filters" aria-label="Search the audit trail">
        <div className="field">
          <label htmlFor={`${id}-operator`}>Operator (e-mail or its beginning)</label>
          <input id={`${id}-operator`} name="operator" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-customer`}>Customer (e-mail, its beginning, or an id)</label>
          <input id={`${id}-customer`} name="customer" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-action`}>Action (a call's name)</label>
          <input id={`${id}-action`} name="action" placeholder="AdminDeactivateDevice" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-from`}>From</label>
          <input id={`${id}-from`} name="from" type="datetime-local" />
        </div>
        <div className="field">
          <label htmlFor={`${id}-to`}>To</label>
          <input id={`${id}-to`} name="to" type="datetime-local" />
        </div>
        <div className="field end">
          <button type="submit" className="primary">
            Search
          </button>
        </div>
      </form>
      <FaultMessage error={search.error} />
      {search.isFetching && (
        <p className="loading" role="status">
          Loading…
        </p>
      )}
      {search.data && (
        <section aria-labelledby={`${id}-entries`} className="panel">
          <h2 id={`${id}-entries`}>
            Entries{cursors.length > 1 ? `, page ${cursors.length}` : ''} (newest first, {AUDIT_PAGE_SIZE} a page)
          </h2>
          <Table
            head={['#', 'When', 'Operator', 'Action', 'Outcome', 'Customer or target', 'Reason', 'Change']}
            empty="No entry matches."
          >
            {entries.map((entry) => (
              <tr key={entry.Seq}>
                <td className="number">{entry.Seq}</td>
                <td>{formatTime(entry.At)}</td>
                <td>
                  {entry.Operator ?? '—'}
                  {entry.Roles.length > 0 && <span className="roles"> ({entry.Roles.join(', ')})</span>}
                </td>
                <th scope="row">{entry.Action}</th>
                <td className={entry.Outcome === 'denied' ? 'denied' : undefined}>{entry.Outcome}</td>
                <td>{entry.Customer ?? (entry.TargetType ? `${entry.TargetType} ${entry.TargetId ?? ''}` : '—')}</td>
                <td>{entry.Reason ?? '—'}</td>
                <td>
                  {entry.Before !== null || entry.After !== null ? (
                    <details>
                      <summary>Before and after</summary>
                      <pre>{JSON.stringify({ before: entry.Before, after: entry.After }, null, 2)}</pre>
                    </details>
                  ) : (
                    '—'
                  )}
                </td>
              </tr>
            ))}
          </Table>
          <div className="actions">
            {cursors.length > 1 && (
              <button type="button" className="secondary" onClick={() => setCursors(cursors.slice(0, -1))}>
                Newer entries
              </button>
            )}
            {search.data.More && last && (
              <button type="button" className="secondary" onClick={() => setCursors([...cursors, last.Seq])}>
                Older entries
              </button>
            )}
          </div>
        </section>
      )}
    </Screen>
  );
}

function VerifyAudit() {
  const verify = useMutation({ mutationFn: () => post('VerifyAudit', {}) });
  const result = verify.data;
  return (
    <div className="panel verify">
      <button type="button" className="secondary" onClick={() => verify.mutate()} disabled={verify.isPending}>
        {verify.isPending ? 'Verifying…' : 'Verify the audit trail'}
      </button>
      {result?.Intact && <Done>The audit trail is intact: {result.Entries} entries follow one from another.</Done>}
      {result && !result.Intact && (
        <p className="fault" role="alert">
          The audit trail is broken
          {result.FirstBroken ? ` at entry #${result.FirstBroken.Seq}: ${result.FirstBroken.Problem}` : ''}.
        </p>
      )}
      <FaultMessage error={verify.error} />
    </div>
  );
}
