import { csvRowsOf, ISSUE_MAX_COUNT, SERIAL_IMPORT_MAX_ROWS, type UPGRADE_CODE_SHAPES } from '@soundid/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useRef, useState } from 'react';
import { Done, FaultMessage } from '../components/fault-message';
import { type Product, ProductSelect } from '../components/product-select';
import { ReasonField } from '../components/reason-field';
import { Screen, Section } from '../components/screen';
import { ApiFault, get, post } from '../lib/api';
import { downloadText, toCsv } from '../lib/csv';
import { fieldText } from '../lib/form';

const stamp = () => new Date().toISOString().slice(0, 19).replace(/[:T]/g, '-');

/** Keys, upgrade codes and campaign serials in bulk (admin): issued ones downloadable as CSV. */
export function BulkScreen() {
  const products = useQuery({ queryKey: ['AdminProducts'], queryFn: () => get('AdminProducts') });
  return (
    <Screen title="Keys and serials">
      <FaultMessage error={products.error} />
      {products.data && <IssueKeys products={products.data} />}
      {products.data && <IssueUpgradeCodes products={products.data} />}
      <ImportSerials />
    </Screen>
  );
}

function CountField() {
  const id = useId();
  return (
    <>
      <label htmlFor={id}>How many (1–{ISSUE_MAX_COUNT})</label>
      <input id={id} name="count" type="number" min={1} max={ISSUE_MAX_COUNT} defaultValue={1} required />
    </>
  );
}

/** What was issued: the values, and their CSV for download. */
function Issued({ what, product, values }: { what: 'key' | 'code'; product: string; values: string[] }) {
  const file = `${product}-${what}s-${stamp()}.csv`;
  return (
    <div className="issued">
      <Done>
        {values.length} {what === 'key' ? 'keys' : 'upgrade codes'} issued for {product}.
      </Done>
      <button
        type="button"
        className="primary"
        onClick={() =>
          downloadText(
            file,
            toCsv(
              ['product', what],
              values.map((value) => [product, value]),
            ),
          )
        }
      >
        Download CSV
      </button>
      <ul className="codes" aria-label={what === 'key' ? 'Issued keys' : 'Issued upgrade codes'}>
        {values.map((value) => (
          <li key={value}>
            <code>{value}</code>
          </li>
        ))}
      </ul>
    </div>
  );
}

function IssueKeys({ products }: { products: Product[] }) {
  const issue = useMutation({
    mutationFn: (body: { product: string; count: number; reason: string }) =>
      post('AdminIssueKeys', body).then((r) => ({ ...r, product: body.product })),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    issue.mutate({
      product: fieldText(form, 'product'),
      count: Number(form.get('count')),
      reason: fieldText(form, 'reason'),
    });
  };
  return (
    <Section title="Issue activation keys" id="issue-keys">
      <form onSubmit={submit} className="stack">
        <ProductSelect products={products} />
        <CountField />
        <ReasonField />
        <FaultMessage error={issue.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={issue.isPending}>
            Issue keys
          </button>
        </div>
      </form>
      {issue.data && <Issued what="key" product={issue.data.product} values={issue.data.Keys} />}
    </Section>
  );
}

function IssueUpgradeCodes({ products }: { products: Product[] }) {
  const id = useId();
  const issue = useMutation({
    mutationFn: (body: {
      product: string;
      from: string[];
      count: number;
      shape: (typeof UPGRADE_CODE_SHAPES)[number];
      reason: string;
    }) => post('AdminIssueUpgradeCodes', body).then((r) => ({ ...r, product: body.product })),
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    issue.mutate({
      product: fieldText(form, 'product'),
      from: form.getAll('from').map(String),
      count: Number(form.get('count')),
      shape: fieldText(form, 'shape') as (typeof UPGRADE_CODE_SHAPES)[number],
      reason: fieldText(form, 'reason'),
    });
  };
  return (
    <Section title="Issue upgrade codes" id="issue-codes">
      <form onSubmit={submit} className="stack">
        <ProductSelect products={products} label="Upgrade to" />
        <fieldset>
          <legend>For keys of</legend>
          <div className="check-grid">
            {products.map((p) => (
              <div key={p.Code} className="check">
                <input id={`${id}-from-${p.Code}`} type="checkbox" name="from" value={p.Code} />
                <label htmlFor={`${id}-from-${p.Code}`}>{p.DisplayName}</label>
              </div>
            ))}
          </div>
        </fieldset>
        <CountField />
        <label htmlFor={`${id}-shape`}>Shape</label>
        <select id={`${id}-shape`} name="shape" defaultValue="upg">
          <option value="upg">UPG-…</option>
          <option value="seven">7 characters</option>
          <option value="grace">…GRACE</option>
        </select>
        <ReasonField />
        <FaultMessage error={issue.error} />
        <div className="actions">
          <button type="submit" className="primary" disabled={issue.isPending}>
            Issue upgrade codes
          </button>
        </div>
      </form>
      {issue.data && <Issued what="code" product={issue.data.product} values={issue.data.Codes} />}
    </Section>
  );
}

function ImportSerials() {
  const id = useId();
  const [fileProblem, setFileProblem] = useState<string>();
  const fileInput = useRef<HTMLInputElement>(null);
  const importing = useMutation({
    mutationFn: (body: { csv: string; reason: string }) => post('AdminImportSerials', body),
  });
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const file = fileInput.current?.files?.[0];
    if (!file || file.size === 0) {
      setFileProblem('Choose a CSV file with one serial a row.');
      return;
    }
    setFileProblem(undefined);
    importing.mutate({ csv: await file.text(), reason: fieldText(form, 'reason') });
  };
  // Every bad row, as the service lists them (CsvRowsInvalid's Rows): nothing was imported.
  const badRows =
    importing.error instanceof ApiFault && importing.error.is('CsvRowsInvalid') ? csvRowsOf(importing.error.fault) : [];
  return (
    <Section title="Import campaign serials" id="import-serials">
      {/* Checked here and by the service: the browser's own bubbles would not name the bad rows. */}
      <form onSubmit={submit} className="stack" noValidate>
        <p className="hint">
          A CSV file: one serial a row in the first column; a header row <code>serial</code> may come first. At most{' '}
          {SERIAL_IMPORT_MAX_ROWS.toLocaleString()} rows. A file with a bad row imports nothing.
        </p>
        <label htmlFor={`${id}-file`}>CSV file</label>
        <input ref={fileInput} id={`${id}-file`} name="file" type="file" accept=".csv,text/csv" required />
        <ReasonField />
        {fileProblem && (
          <p className="fault" role="alert">
            {fileProblem}
          </p>
        )}
        <FaultMessage error={importing.error} />
        {badRows.length > 0 && (
          <ul className="bad-rows" aria-label="Rows to correct">
            {badRows.map((row) => (
              <li key={row}>{row}</li>
            ))}
          </ul>
        )}
        <div className="actions">
          <button type="submit" className="primary" disabled={importing.isPending}>
            Import serials
          </button>
        </div>
      </form>
      {importing.data && (
        <Done>
          {importing.data.Rows} rows read: {importing.data.Added} serials added, {importing.data.AlreadyPresent} already
          present.
        </Done>
      )}
    </Section>
  );
}
