import { Children, type ReactNode } from 'react';

/**
 * A table with a header row; wide tables scroll sideways in their own box. With `empty`, a table
 * without rows is that sentence instead.
 */
export function Table({
  head,
  caption,
  empty,
  children,
}: {
  head: string[];
  caption?: string;
  empty?: ReactNode;
  children: ReactNode;
}) {
  if (empty !== undefined && Children.count(children) === 0) return <Empty>{empty}</Empty>;
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
