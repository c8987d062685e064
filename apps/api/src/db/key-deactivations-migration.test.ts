import { describe, expect, it } from 'vitest';
import { databaseBefore } from '../../test/migration-before';

/**
 * Migration 0005 moves the deactivation history onto the keys (ADR 0030): a database that
 * already holds counted deactivations keeps its used allowance after the upgrade.
 */

const TAG = /^0005_/;

describe('migration 0005 key_deactivations', () => {
  // The SQL is plain PostgreSQL; one run on PGlite proves it (the PostgreSQL project skips it).
  it.skipIf(process.env.TEST_DB_KIND === 'postgres')(
    'charges every counted deactivation so far to the keys the customer holds of the product',
    async () => {
      const { client, migrateRest, close } = await databaseBefore(TAG);
      await client.exec(`
      insert into users (id, email, password_hash) values
        ('00000000-0000-4000-8000-000000000001', 'ann@example.com', 'x'),
        ('00000000-0000-4000-8000-000000000002', 'bob@example.com', 'x');
      insert into license_keys (id, key, product_code, user_id) values
        ('00000000-0000-4000-8000-0000000000a1', 'AAAAAAAAAAAAAAAAAAAAAAA1', 'sid-reference', '00000000-0000-4000-8000-000000000001'),
        ('00000000-0000-4000-8000-0000000000a2', 'AAAAAAAAAAAAAAAAAAAAAAA2', 'sid-reference', '00000000-0000-4000-8000-000000000001'),
        ('00000000-0000-4000-8000-0000000000a3', 'AAAAAAAAAAAAAAAAAAAAAAA3', 'ref4-studio', '00000000-0000-4000-8000-000000000001'),
        ('00000000-0000-4000-8000-0000000000b1', 'BBBBBBBBBBBBBBBBBBBBBBB1', 'sid-reference', '00000000-0000-4000-8000-000000000002');
      insert into licences (id, user_id, product_code) values
        ('00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'sid-reference');
      insert into devices (id, licence_id, user_id, machine_id, name, activated_at, deactivated_at, deactivation_cause) values
        ('00000000-0000-4000-8000-0000000000d1', '00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'm1', 'One', now(), now(), 'customer'),
        ('00000000-0000-4000-8000-0000000000d2', '00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'm2', 'Two', now(), now(), 'app'),
        ('00000000-0000-4000-8000-0000000000d3', '00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'm3', 'Three', now(), now(), 'licence-removed'),
        ('00000000-0000-4000-8000-0000000000d4', '00000000-0000-4000-8000-0000000000c1', '00000000-0000-4000-8000-000000000001', 'm4', 'Four', now(), null, null);
    `);

      await migrateRest();
      const { rows } = await client.query<{ key_id: string; device_id: string; cause: string }>(
        'select key_id, device_id, cause from key_deactivations order by key_id, device_id',
      );
      // Ann's two SoundID Reference keys carry her two counted deactivations; the uncounted one,
      // the active device, her other product's key and Bob's key get nothing.
      expect(rows.map((r) => [r.key_id.slice(-2), r.device_id.slice(-2), r.cause])).toEqual([
        ['a1', 'd1', 'customer'],
        ['a1', 'd2', 'app'],
        ['a2', 'd1', 'customer'],
        ['a2', 'd2', 'app'],
      ]);
      await close();
    },
    120_000,
  );
});
