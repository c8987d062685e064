import { CSV_BAD_ROWS_LISTED, csvRowsOf, SERIAL_IMPORT_MAX_ROWS } from '@soundid/contracts';
import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { auditEntries } from '../../db/operators-schema';
import { Fault } from '../../lib/fault';
import { serialsFromCsv } from './serial-import';

/**
 * Campaign serials from a CSV file (AdminImportSerials, docs/decisions/0048-csv-import.md):
 * every bad row reported by its row number and why, and nothing imported unless every row is
 * good (ASVS 2.2.1: input validated as a whole before it is used; 2.3.3: all or nothing).
 */
const badRowsOf = (csv: string): string[] => {
  try {
    serialsFromCsv(csv);
  } catch (error) {
    if (error instanceof Fault && error.faultName === 'CsvRowsInvalid') return csvRowsOf(error.toBody());
    throw error;
  }
  throw new Error('the file was taken');
};

describe('reading the file', () => {
  it('takes the first column, an optional header, a byte-order mark, quotes, blank rows, any line ending', () => {
    expect(serialsFromCsv('serial,note\nADAM00001,first\nadam00002,"second, quoted"\n')).toEqual([
      'ADAM00001',
      'ADAM00002',
    ]);
    expect(serialsFromCsv('\uFEFFSerial\r\nADAM00003\r\n\r\n"ADAM00004"\r\n,,\r\n')).toEqual([
      'ADAM00003',
      'ADAM00004',
    ]);
    // A spreadsheet's export with semicolons or tabs, extra columns and no header.
    expect(serialsFromCsv('ADAM00005;x;y\nADAM00006\tz\n  ADAM00007  ')).toEqual([
      'ADAM00005',
      'ADAM00006',
      'ADAM00007',
    ]);
  });

  it('reports every bad row, by its row in the file, and why', () => {
    const csv = [
      'serial', // 1
      'ADAM00010', // 2
      'SHORT', // 3
      'A'.repeat(25), // 4
      ',no serial here', // 5
      'ADAM 00011', // 6
      'adam00010', // 7: row 2 again, in another case
      '"ADAM0', // 8–9: a line break inside a quoted value
      '0012"',
      'ADAM00013', // 10
    ].join('\n');
    expect(badRowsOf(csv)).toEqual([
      'Row 3: "SHORT": Serial number must be at least 9 characters.',
      `Row 4: "${'A'.repeat(25)}": Serial number must be at most 24 characters.`,
      'Row 5: no serial in the first column',
      'Row 6: "ADAM 00011": a serial has no spaces or line breaks',
      'Row 7: "adam00010" is in row 2 too',
      'Row 8: "ADAM0\\n0012": a serial has no spaces or line breaks',
    ]);
  });

  it("reports what csv-parse cannot read, with the other rows' problems", () => {
    expect(badRowsOf('ADAM00020\nAD"AM00021\nSHORT\n')).toEqual([
      'Row 2: a quote inside a value that does not start with one (quote the whole value)',
      'Row 3: "SHORT": Serial number must be at least 9 characters.',
    ]);
    expect(badRowsOf('ADAM00022\n"ADAM00023\nADAM00024\n')[0]).toMatch(
      /^Row \d: a quote opened on this row is never closed/,
    );
  });

  it(`lists the first ${CSV_BAD_ROWS_LISTED} bad rows and counts the rest, rows it cannot read counted against the limit`, () => {
    const broken = Array.from({ length: 150 }, (_, i) => `AD"AM${String(i).padStart(5, '0')}`);
    const listed = badRowsOf(broken.join('\n'));
    expect(listed).toHaveLength(CSV_BAD_ROWS_LISTED + 1);
    expect(listed.at(-1)).toBe('… and 50 more bad rows');
    const unreadable = Array.from({ length: SERIAL_IMPORT_MAX_ROWS + 1 }, (_, i) => `S"${i}`);
    expect(() => serialsFromCsv(unreadable.join('\n'))).toThrow(
      expect.objectContaining({ faultName: 'RequestInvalid', message: expect.stringContaining('at most 10000') }),
    );
  });

  it('refuses a file without serials, or with more than a file takes, as a whole', () => {
    for (const csv of ['serial\n', '\n\n', ',,\n']) {
      expect(() => serialsFromCsv(csv)).toThrow(expect.objectContaining({ faultName: 'RequestInvalid' }));
    }
    const tooMany = Array.from({ length: SERIAL_IMPORT_MAX_ROWS + 1 }, (_, i) => `SER${String(i).padStart(8, '0')}`);
    expect(() => serialsFromCsv(tooMany.join('\n'))).toThrow(
      expect.objectContaining({ faultName: 'RequestInvalid', message: expect.stringContaining('at most 10000') }),
    );
    expect(serialsFromCsv(tooMany.slice(1).join('\n'))).toHaveLength(SERIAL_IMPORT_MAX_ROWS);
  });
});

describe('AdminImportSerials (ASVS 8.2.1, 16.2.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const importCsv = async (csv: string, roles: ('admin' | 'support' | 'finance')[] = ['admin'], reason = 'batch 7') =>
    t.app.inject({
      method: 'POST',
      url: '/api/admin/import-serials',
      payload: { csv, ...(reason ? { reason } : {}) },
      headers: { authorization: `Bearer ${await t.operatorToken(roles)}` },
    });
  const claim = (serial: string, token: string) => t.call('/api/accounts/Campaign/ClaimAdam60Day', { serial }, token);

  it('imports a good file in one go, the same insert as add-serials; a second import adds nothing', async () => {
    const csv = 'serial,batch\nIMPORT0001,7\nIMPORT0002,7\nimport0003,7\n';
    const res = await importCsv(csv);
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toEqual({ Rows: 3, Added: 3, AlreadyPresent: 0 });
    expect((await importCsv(csv)).json().Result).toEqual({ Rows: 3, Added: 0, AlreadyPresent: 3 });
    const [entry] = await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1);
    expect(entry).toMatchObject({
      action: 'AdminImportSerials',
      outcome: 'done',
      targetType: 'campaign',
      after: { rows: 3, Added: 0, AlreadyPresent: 3 },
      reason: 'batch 7',
    });
    const token = await signUpVerified(t, 'monitor-owner@example.com');
    expect((await claim('IMPORT0003', token)).statusCode).toBe(200);
  });

  it(`takes a file of ${SERIAL_IMPORT_MAX_ROWS} serials (above the API's usual body limit)`, async () => {
    const rows = Array.from({ length: SERIAL_IMPORT_MAX_ROWS }, (_, i) => `BULK${String(i).padStart(6, '0')},batch 8`);
    const res = await importCsv(`serial,batch\n${rows.join('\n')}\n`);
    expect(res.json().Result).toEqual({
      Rows: SERIAL_IMPORT_MAX_ROWS,
      Added: SERIAL_IMPORT_MAX_ROWS,
      AlreadyPresent: 0,
    });
  });

  it('a file with bad rows imports nothing and lists them all in the fault', async () => {
    const res = await importCsv('IMPORT0010\nBAD\nIMPORT0011\nIMPORT0010\n');
    expect([res.statusCode, faultOf(res)]).toEqual([400, 'CsvRowsInvalid']);
    expect(csvRowsOf(res.json().Fault)).toEqual([
      'Row 2: "BAD": Serial number must be at least 9 characters.',
      'Row 4: "IMPORT0010" is in row 1 too',
    ]);
    const token = await signUpVerified(t, 'nothing-imported@example.com');
    expect(faultOf(await claim('IMPORT0011', token))).toBe('SerialNotFound');
  });

  it('bad input is a 4xx: no reason, not a string, too large, an empty file; support and finance are refused', async () => {
    const huge = await importCsv('X'.repeat(2_000_001));
    expect(huge.statusCode).toBe(400);
    const overLimit = await importCsv('X'.repeat(3_500_000));
    expect([overLimit.statusCode, faultOf(overLimit)]).toEqual([400, 'RequestTooLarge']);
    expect((await importCsv('IMPORT0020', ['admin'], '')).statusCode).toBe(400);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/admin/import-serials',
          payload: { csv: ['IMPORT0021'], reason: 'x y z' },
          headers: { authorization: `Bearer ${await t.operatorToken(['admin'])}` },
        })
      ).statusCode,
    ).toBe(400);
    expect((await importCsv('')).statusCode).toBe(400);
    expect(faultOf(await importCsv('serial\n'))).toBe('RequestInvalid');
    expect((await importCsv('"unclosed')).statusCode).toBe(400);
    for (const role of ['support', 'finance'] as const) {
      const res = await importCsv('IMPORT0022', [role]);
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OperatorForbidden']);
    }
  });
});
