import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migration-before';

/**
 * The migration that gives each outbox mail its account (ADR 0038) backfills the mails already
 * kept: those to an address an account took by a confirmed e-mail change, while it held it, and
 * those to an account's current address, so that the data export still lists them.
 */
const TAG = /^\d{4}_mail_outbox_account$/;

describe('migration mail_outbox_account', () => {
  // The SQL is plain PostgreSQL; one run on PGlite proves it (the PostgreSQL project skips it).
  it.skipIf(process.env.TEST_DB_KIND === 'postgres')(
    'gives the kept mails the account that held their address when they were sent',
    async () => {
      const { client, migrateRest, close } = await databaseBefore(TAG);
      // Ann signed up as ann@, changed to ann.two@ on day 2, then to ann.three@ on day 5. Bob
      // signed up with the freed ann.two@ on day 6. Carol's change to carol.new@ was never confirmed.
      await client.exec(`
      insert into users (id, email, password_hash) values
        ('00000000-0000-4000-8000-00000000000a', 'ann.three@example.com', 'x'),
        ('00000000-0000-4000-8000-00000000000b', 'ann.two@example.com', 'x'),
        ('00000000-0000-4000-8000-00000000000c', 'carol@example.com', 'x');
      insert into action_tokens (token_hash, kind, user_id, new_email, created_at, expires_at, used_at) values
        ('h1', 'email_change', '00000000-0000-4000-8000-00000000000a', 'ann.two@example.com',
          '2026-01-02T10:00Z', '2026-01-03T10:00Z', '2026-01-02T11:00Z'),
        ('h2', 'email_change', '00000000-0000-4000-8000-00000000000a', 'ann.three@example.com',
          '2026-01-05T10:00Z', '2026-01-06T10:00Z', '2026-01-05T11:00Z'),
        ('h3', 'email_change', '00000000-0000-4000-8000-00000000000c', 'carol.new@example.com',
          '2026-01-03T10:00Z', '2026-01-04T10:00Z', null);
      insert into mail_outbox (to_address, subject, text_body, html_body, created_at) values
        ('ann@example.com', 'ann-signup', 't', 'h', '2026-01-01T10:00Z'),
        ('ann.two@example.com', 'ann-two-confirm', 't', 'h', '2026-01-02T10:00Z'),
        ('ann.two@example.com', 'ann-two-alert', 't', 'h', '2026-01-04T10:00Z'),
        ('ann.three@example.com', 'ann-three-confirm', 't', 'h', '2026-01-05T10:00Z'),
        ('ann.three@example.com', 'ann-three-alert', 't', 'h', '2026-01-07T10:00Z'),
        ('ann.two@example.com', 'bob-signup', 't', 'h', '2026-01-06T10:00Z'),
        ('carol.new@example.com', 'carol-new-confirm', 't', 'h', '2026-01-03T10:00Z'),
        ('carol@example.com', 'carol-alert', 't', 'h', '2026-01-04T10:00Z'),
        ('nobody@example.com', 'licence-to-no-account', 't', 'h', '2026-01-04T10:00Z');
    `);

      await migrateRest();
      const { rows } = await client.query<{ subject: string; user_id: string | null }>(
        'select subject, user_id from mail_outbox order by id',
      );
      const owner = { a: 'ann', b: 'bob', c: 'carol' } as Record<string, string>;
      expect(rows.map((r) => [r.subject, r.user_id ? owner[r.user_id.slice(-1)] : null])).toEqual([
        ['ann-signup', null], // her first address is kept nowhere
        ['ann-two-confirm', 'ann'],
        ['ann-two-alert', 'ann'],
        ['ann-three-confirm', 'ann'],
        ['ann-three-alert', 'ann'],
        ['bob-signup', 'bob'],
        ['carol-new-confirm', null], // never confirmed: the address was not hers
        ['carol-alert', 'carol'],
        ['licence-to-no-account', null],
      ]);
      await close();
    },
    120_000,
  );
});
