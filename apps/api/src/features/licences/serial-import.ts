import { CSV_BAD_ROWS_LISTED, CSV_ROWS_VARIABLE, SERIAL_IMPORT_MAX_ROWS, serialSchema } from '@soundid/contracts';
import { type CsvError, parse } from 'csv-parse/sync';
import { Fault } from '../../lib/fault';
import { normalizeCode } from './codes';

/** What an operator is told of a bad row: its value (cut short) before why. */
const SHOWN_VALUE_LENGTH = 40;

/** csv-parse's own errors, said for an operator who made the file in a spreadsheet. */
const PARSE_PROBLEMS: Record<string, string> = {
  INVALID_OPENING_QUOTE: 'a quote inside a value that does not start with one (quote the whole value)',
  CSV_QUOTE_NOT_CLOSED: 'a quote opened on this row is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'a closing quote followed by more text (quote the whole value)',
  CSV_MAX_RECORD_SIZE: 'the row is too long',
};

/**
 * The serials of a CSV file (AdminImportSerials, docs/decisions/0048-csv-import.md): parsed by
 * csv-parse (comma, semicolon or tab separated; a UTF-8 byte-order mark, quoted values and blank
 * rows allowed), one serial in the first column of each row (the other columns are ignored),
 * after an optional header row `serial`. Every row is checked with the contracts' serialSchema,
 * a serial has no space or line break inside, and one that is in the file twice is a bad row:
 * all the bad rows are reported at once (CsvRowsInvalid, the list in `Rows`), so that nothing
 * is imported until the whole file is good. Answers the serials as they are stored (normalised).
 */
export function serialsFromCsv(csv: string): string[] {
  const bad: { row: number; problem: string }[] = [];
  const records = parse(csv.replace(/\r\n?/g, '\n'), {
    bom: true,
    delimiter: [',', ';', '\t'],
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    trim: true,
    info: true,
    skip_records_with_error: true,
    on_skip: (error: CsvError | undefined) => {
      // csv-parse's errors carry the line where the problem was found.
      if (error) bad.push({ row: Number(error.lines) || 0, problem: PARSE_PROBLEMS[error.code] ?? error.message });
    },
  }) as unknown as { record: string[]; info: { lines: number } }[];

  const rows = records.map(({ record, info }) => ({
    // The row where the record starts: a quoted value may hold line breaks.
    row: info.lines - record.reduce((breaks, value) => breaks + (value.match(/\n/g)?.length ?? 0), 0),
    value: record[0] ?? '',
  }));
  if (rows[0] && rows[0].value.toLowerCase() === 'serial') rows.shift();
  if (rows.length === 0 && bad.length === 0) {
    throw new Fault('RequestInvalid', { csv: 'The file has no serials.' }, 'The file has no serials.');
  }
  // Rows csv-parse could not read count too: a file of broken rows is no longer than a good one.
  if (rows.length + bad.length > SERIAL_IMPORT_MAX_ROWS) {
    const text = `The file has ${rows.length + bad.length} rows; at most ${SERIAL_IMPORT_MAX_ROWS} are imported at once.`;
    throw new Fault('RequestInvalid', { csv: text }, text);
  }

  const firstRowOf = new Map<string, number>();
  const serials: string[] = [];
  for (const { row, value } of rows) {
    const problem = problemOf(value);
    if (problem) {
      bad.push({ row, problem: value === '' ? problem : `${shown(value)}: ${problem}` });
      continue;
    }
    const serial = normalizeCode(value);
    const first = firstRowOf.get(serial);
    if (first !== undefined) {
      bad.push({ row, problem: `${shown(value)} is in row ${first} too` });
      continue;
    }
    firstRowOf.set(serial, row);
    serials.push(serial);
  }
  if (bad.length > 0) {
    const listed = bad
      .sort((a, b) => a.row - b.row)
      .slice(0, CSV_BAD_ROWS_LISTED)
      .map(({ row, problem }) => `Row ${row}: ${problem}`);
    // The answer stays small whatever the file: the first rows, then how many more.
    if (bad.length > CSV_BAD_ROWS_LISTED) listed.push(`… and ${bad.length - CSV_BAD_ROWS_LISTED} more bad rows`);
    throw new Fault('CsvRowsInvalid', { [CSV_ROWS_VARIABLE]: JSON.stringify(listed) });
  }
  return serials;
}

function problemOf(value: string): string | undefined {
  if (value === '') return 'no serial in the first column';
  const checked = serialSchema.safeParse(value);
  if (!checked.success) return checked.error.issues[0]?.message ?? 'not a serial';
  if (/\s/.test(value)) return 'a serial has no spaces or line breaks';
  return undefined;
}

function shown(value: string): string {
  return JSON.stringify(value.length > SHOWN_VALUE_LENGTH ? `${value.slice(0, SHOWN_VALUE_LENGTH)}…` : value);
}
