import type { ReactNode } from 'react';

/** A table with a header row; wide tables scroll sideways in their own box. */
export function Table({ head, caption, children }: { head: string[]; caption?: string; children: ReactNode }) {
  return (
    <div className="table-wrap">
      <table>
        {caption && <caption className="visually-hidden">{caption}</caption>}
        <thead>
          <tr>
            {head.map((h, i) => (
              <th key={h || `column-${i}`} scope="col">
                {h || <span className="visually-hidden">Actions</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** Terms and their values (a record's fields). */
export function Facts({ rows }: { rows: [string, ReactNode][] }) {
  return (
    <dl className="facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

export const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}
