import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migration-before';

/**
 * The migration that adds the record of every mail (mail_log, ADR 0038's revision) records the
 * mails the dev outbox already kept, so that the data export, which now reads the record, still
 * lists them: subject, account and times, never a body or a link.
 */
const TAG = /^\d{4}_mail_log$/;

describe('migration mail_log', () => {
  // The SQL is plain PostgreSQL; one run on PGlite proves it (the PostgreSQL project skips it).
  it.skipIf(process.env.TEST_DB_KIND === 'postgres')(
    'records each mail of the outbox as sent when it was kept, in order, without its bodies or links',
    async () => {
      const { client, migrateRest, close } = await databaseBefore(TAG);
      await client.exec(`
      insert into mail_outbox (to_address, user_id, subject, text_body, html_body, links, created_at) values
        ('ann@example.com', '00000000-0000-4000-8000-00000000000a', 'Verify', 'see https://x.test/verify-email/T1',
          '<a href="https://x.test/verify-email/T1">verify</a>', '["https://x.test/verify-email/T1"]', '2026-01-01T10:00Z'),
        ('nobody@example.com', null, 'Your licence', 'key body', '<p>key body</p>', '[]', '2026-01-02T10:00Z');
    `);

      await migrateRest();
      const { rows } = await client.query<Record<string, unknown>>(
        'select to_address, user_id, subject, outcome, failure, created_at, sent_at from mail_log order by id',
      );
      expect(rows).toEqual([
        {
          to_address: 'ann@example.com',
          user_id: '00000000-0000-4000-8000-00000000000a',
          subject: 'Verify',
          outcome: 'sent',
          failure: null,
          created_at: new Date('2026-01-01T10:00Z'),
          sent_at: new Date('2026-01-01T10:00Z'),
        },
        {
          to_address: 'nobody@example.com',
          user_id: null,
          subject: 'Your licence',
          outcome: 'sent',
          failure: null,
          created_at: new Date('2026-01-02T10:00Z'),
          sent_at: new Date('2026-01-02T10:00Z'),
        },
      ]);
      expect(JSON.stringify(rows)).not.toMatch(/verify-email|https?:|key body/);
      // The record cannot hold a failure without a reason, nor a reason past 200 characters.
      await expect(
        client.query(`insert into mail_log (to_address, subject, outcome) values ('a@example.com', 'S', 'failed')`),
      ).rejects.toThrow(/mail_log_outcome_fields/);
      await expect(
        client.query(
          `insert into mail_log (to_address, subject, outcome, failure) values ('a@example.com', 'S', 'failed', repeat('x', 201))`,
        ),
      ).rejects.toThrow(/mail_log_failure_short/);
      await close();
    },
    120_000,
  );
});
