import { Column, is, type SQL, type SQLWrapper, sql } from 'drizzle-orm';

/** A Drizzle select whose fields are plain columns (what `db.select()` or `db.select({ a: t.a })` builds). */
interface ColumnSelect<TRow> extends SQLWrapper {
  _: { selectedFields: Record<string, unknown>; result: TRow[] };
}

/**
 * A select's rows as one JSON array, to read several lists in one statement (one round trip)
 * as subqueries of another select. Each element comes back as the row Drizzle would have
 * returned for the select itself (columns by their keys, each decoded by its column: dates
 * become Dates). The rows keep the select's ORDER BY: json_agg aggregates the sorted subquery's
 * rows in the order they arrive.
 */
export function jsonRows<TRow>(query: ColumnSelect<TRow>): SQL<TRow[]> {
  const fields = Object.entries(query._.selectedFields).map(([key, field]) => {
    if (!is(field, Column)) throw new Error(`jsonRows: field ${key} is not a column`);
    return [key, field] as const;
  });
  return sql<TRow[]>`(select coalesce(json_agg(q), '[]'::json) from (${query}) q)`.mapWith(
    (value: Record<string, unknown>[] | string) =>
      (typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>[]) : value).map((row) => {
        const decoded: Record<string, unknown> = {};
        for (const [key, column] of fields) {
          const value = row[column.name];
          decoded[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
        }
        return decoded as TRow;
      }),
  );
}
