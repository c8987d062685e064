import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../../test/kit/test-database';
import type { DatabaseHandle } from '../../db/client';
import { JobQueue } from './index';

/** The job queue on pg-boss (docs/decisions/0051-job-queue.md), on PGlite and on PostgreSQL. */
let database: DatabaseHandle;
const logged: string[] = [];
const log = {
  info: () => {},
  warn: () => {},
  error: (_: unknown, message: string) => logged.push(message),
} as unknown as FastifyBaseLogger;

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database.close());

const until = async (done: () => Promise<boolean>, what: string, tries = 200) => {
  for (let i = 0; i < tries; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
};

describe('the job queue', () => {
  it('runs a queued job once and keeps what it answered', async () => {
    const seen: object[] = [];
    const queue = new JobQueue({ connection: database.jobQueueConnection, log, pollingIntervalSeconds: 0.5 });
    queue.define({
      name: 'test-echo',
      run: async (data) => {
        seen.push(data);
        return { echoed: true };
      },
    });
    await queue.start({ work: true });
    try {
      const id = await queue.enqueue('test-echo', { n: 1 });
      expect(id).toBeTruthy();
      await until(async () => (await queue.job('test-echo', id as string))?.state === 'completed', 'the job');
      expect(seen).toEqual([{ n: 1 }]);
      expect((await queue.job('test-echo', id as string))?.output).toEqual({ echoed: true });
    } finally {
      await queue.stop();
    }
  });

  it('queues a job in a transaction: it exists only if the transaction commits (the embedded database does not deadlock)', async () => {
    const queue = new JobQueue({ connection: database.jobQueueConnection, log });
    queue.define({ name: 'test-outbox', run: async () => undefined });
    // Queues only: no worker takes the job, so it stays to be read.
    await queue.start({ work: false });
    try {
      await expect(
        database.db.transaction(async (tx) => {
          await queue.enqueueIn(tx, 'test-outbox', { kept: false });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      const committed = await database.db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        return queue.enqueueIn(tx, 'test-outbox', { kept: true });
      });
      const rows = (await database.db.execute(
        sql`select data from pgboss.job where name = 'test-outbox' order by created_on`,
      )) as unknown as { rows: { data: object }[] };
      expect(rows.rows.map((r) => r.data)).toEqual([{ kept: true }]);
      expect(committed).toBeTruthy();
    } finally {
      await queue.stop();
    }
  });

  it('an exclusive job is queued at most once at a time; on a short queue a singleton key holds back a second job with the key while the first waits', async () => {
    const queue = new JobQueue({ connection: database.jobQueueConnection, log });
    queue.define({ name: 'test-sweep', policy: 'exclusive', run: async () => undefined });
    queue.define({ name: 'test-keyed', policy: 'short', run: async () => undefined });
    await queue.start({ work: false });
    try {
      expect(await queue.enqueue('test-sweep')).toBeTruthy();
      expect(await queue.enqueue('test-sweep')).toBeNull();
      expect(await queue.enqueue('test-keyed', {}, { singletonKey: 'device-1' })).toBeTruthy();
      expect(await queue.enqueue('test-keyed', {}, { singletonKey: 'device-1' })).toBeNull();
      expect(await queue.enqueue('test-keyed', {}, { singletonKey: 'device-2' })).toBeTruthy();
    } finally {
      await queue.stop();
    }
  });

  it('keeps one schedule per job however many replicas start, and refuses an undefined job', async () => {
    const make = () => {
      const queue = new JobQueue({ connection: database.jobQueueConnection, log });
      queue.define({ name: 'test-hourly', schedule: '17 * * * *', policy: 'exclusive', run: async () => undefined });
      return queue;
    };
    const first = make();
    const second = make();
    await first.start({ work: true });
    await second.start({ work: true });
    try {
      const schedules = (await first.schedules()).filter((s) => s.name === 'test-hourly');
      expect(schedules).toHaveLength(1);
      expect(schedules[0]?.cron).toBe('17 * * * *');
      await expect(first.enqueue('no-such-job')).rejects.toThrow('No job is defined as no-such-job');
      expect(() => first.define({ name: 'late', run: async () => undefined })).toThrow();
    } finally {
      await first.stop();
      await second.stop();
    }
  });

  it('tries a failed job again and logs the failure', async () => {
    let tries = 0;
    const queue = new JobQueue({ connection: database.jobQueueConnection, log, pollingIntervalSeconds: 0.5 });
    queue.define({
      name: 'test-flaky',
      retryLimit: 1,
      run: async () => {
        tries += 1;
        if (tries === 1) throw new Error('first try fails');
        return { tries };
      },
    });
    await queue.start({ work: true });
    try {
      const id = (await queue.enqueue('test-flaky')) as string;
      // pg-boss waits before a retry (backoff); the test waits for the second try's completion.
      await until(async () => (await queue.job('test-flaky', id))?.state === 'completed', 'the retry', 600);
      expect(tries).toBe(2);
      expect(logged).toContain('job failed');
    } finally {
      await queue.stop();
    }
  });
});
