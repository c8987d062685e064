import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type DrizzleTransactionLike, fromDrizzle, type Job, PgBoss } from 'pg-boss';
import type { Queryable } from '../../db/client';
import { JOB_QUEUE_SCHEMA, type JobQueueConnection, jobQueueConnectionOptions } from '../../db/job-queue-schema';

/**
 * Scheduled and queued work on pg-boss, in the service's own database (docs/decisions/0051-job-queue.md).
 * Every replica may work every queue: a job is claimed by one worker (SKIP LOCKED), a schedule is
 * queued once per occurrence whoever's scheduler sees it first, and a job queued inside a
 * transaction exists only if that transaction commits.
 */
export interface JobDefinition<T extends object = object> {
  name: string;
  /** A cron expression in UTC: the job is queued at each occurrence, once across the replicas. */
  schedule?: string;
  /**
   * 'exclusive': at most one queued or running at a time, across the replicas (a sweep);
   * 'short': at most one queued per singleton key (EnqueueOptions.singletonKey).
   */
  policy?: 'standard' | 'short' | 'exclusive';
  /** Tries after the first before the job is marked failed (pg-boss's default is 2). */
  retryLimit?: number;
  /** Seconds a try may run before it is taken as lost and tried again. */
  expireInSeconds?: number;
  /** The work; what it answers is kept as the job's output. A throw fails the try. */
  run(data: T, job: { id: string; retryCount: number }): Promise<object | undefined>;
}

export interface JobQueueOptions {
  connection: JobQueueConnection;
  log: FastifyBaseLogger;
  /** This process's name in the queue's registry of instances (hostname and pid by default). */
  instanceName?: string;
  /** How often an idle worker looks for a job (pg-boss's default is 2 seconds). */
  pollingIntervalSeconds?: number;
}

export interface JobSummary {
  name: string;
  schedule: string | null;
  queued: number;
  active: number;
  failed: number;
  completed: number;
  lastCompletedAt: Date | null;
}

/** One enqueued job's options: on a 'short' queue, a second job with the key is a no-op while the first waits. */
export interface EnqueueOptions {
  singletonKey?: string;
  /** Not before this many seconds from now. */
  startAfterSeconds?: number;
}

export class JobQueue {
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private boss: PgBoss | undefined;
  private starting: Promise<void> | undefined;
  private working = false;

  constructor(private readonly options: JobQueueOptions) {}

  /** Registers jobs; before start only. */
  define<T extends object>(...jobs: JobDefinition<T>[]): this {
    if (this.boss) throw new Error('Jobs are defined before the queue starts');
    for (const job of jobs) {
      if (this.definitions.has(job.name)) throw new Error(`Job ${job.name} is defined twice`);
      this.definitions.set(job.name, job as unknown as JobDefinition<object>);
    }
    return this;
  }

  get names(): string[] {
    return [...this.definitions.keys()];
  }

  /**
   * Connects and makes every defined queue. `work`: this process runs the jobs and keeps the
   * schedules (a replica can leave both to others: JOB_WORKERS=false); without it, it only queues.
   */
  async start({ work }: { work: boolean }): Promise<void> {
    if (this.starting) {
      await this.starting;
      if (work && !this.working) throw new Error('The job queue was started without workers');
      return;
    }
    this.starting = this.open(work);
    try {
      await this.starting;
    } catch (error) {
      this.starting = undefined;
      throw error;
    }
  }

  /**
   * Started, in this process queueing only if no one started it (an operator call on an app
   * built without the server, a test). Before any transaction that queues: starting runs
   * statements of its own, which the embedded database's one connection cannot take mid-transaction.
   */
  async ready(): Promise<void> {
    await this.start({ work: false }).catch((error: unknown) => {
      if (!(error instanceof Error && error.message === 'The job queue was started without workers')) throw error;
    });
  }

  private async open(work: boolean): Promise<void> {
    const boss = new PgBoss({
      ...jobQueueConnectionOptions(this.options.connection),
      // The schema is installed with the service's migrations (db/job-queue-schema.ts).
      migrate: false,
      supervise: work,
      schedule: work,
      registerInstance: work,
      ...(this.options.instanceName ? { instanceName: this.options.instanceName } : {}),
      openTelemetry: { enabled: false },
    });
    boss.on('error', (error) => this.options.log.error({ err: error }, 'job queue error'));
    await boss.start();
    this.boss = boss;
    for (const job of this.definitions.values()) {
      await boss.createQueue(job.name, {
        policy: job.policy ?? 'standard',
        ...(job.retryLimit !== undefined ? { retryLimit: job.retryLimit } : {}),
        ...(job.expireInSeconds !== undefined ? { expireInSeconds: job.expireInSeconds } : {}),
        retryBackoff: true,
      });
    }
    if (!work) return;
    this.working = true;
    for (const job of this.definitions.values()) {
      await boss.work<object>(
        job.name,
        {
          // One job at a time, and the next at once while there are more (a burst of mails).
          batchSize: 1,
          burstWhenBatchFull: true,
          ...(this.options.pollingIntervalSeconds !== undefined
            ? { pollingIntervalSeconds: this.options.pollingIntervalSeconds }
            : {}),
        },
        async ([claimed]: Job<object>[]) => {
          if (!claimed) return undefined;
          const started = Date.now();
          try {
            const output = await job.run(claimed.data ?? {}, { id: claimed.id, retryCount: claimed.retryCount });
            this.options.log.info({ job: job.name, id: claimed.id, ms: Date.now() - started }, 'job done');
            return output;
          } catch (error) {
            this.options.log.error({ err: error, job: job.name, id: claimed.id }, 'job failed');
            throw error;
          }
        },
      );
      if (job.schedule) await boss.schedule(job.name, job.schedule, null, { tz: 'UTC' });
      else await boss.unschedule(job.name).catch(() => {});
    }
  }

  /** Queues a job now (a schedule's run by hand, a follow-up). Answers its id, or null when a singleton key held it back. */
  async enqueue(name: string, data: object = {}, options: EnqueueOptions = {}): Promise<string | null> {
    await this.ready();
    return this.started().send(name, data, this.sendOptions(name, options));
  }

  /**
   * Queues a job in the caller's transaction: it exists only if the transaction commits, so the
   * work it stands for (a mail about a change) happens if and only if the change did.
   */
  async enqueueIn(tx: Queryable, name: string, data: object, options: EnqueueOptions = {}): Promise<string | null> {
    return this.started().send(name, data, {
      ...this.sendOptions(name, options),
      db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql),
    });
  }

  /**
   * Works off, in this process and now, the jobs of `name` that are due: what an operator does to
   * run a schedule at once (npm run admin -- run-job), and how the tests run a job at a time they
   * choose. Answers what each run answered. A throw marks that job failed and is thrown on.
   */
  async drain(name: string): Promise<object[]> {
    await this.ready();
    const boss = this.started();
    const job = this.definitions.get(name);
    if (!job) throw new Error(`No job is defined as ${name}`);
    const outputs: object[] = [];
    for (;;) {
      const [claimed] = await boss.fetch<object>(name, { batchSize: 1 });
      if (!claimed) return outputs;
      let output: object | undefined;
      try {
        output = await job.run(claimed.data ?? {}, { id: claimed.id, retryCount: claimed.retryCount });
      } catch (error) {
        await boss.fail(name, claimed.id, { message: error instanceof Error ? error.message : String(error) });
        throw error;
      }
      await boss.complete(name, claimed.id, output ?? null);
      outputs.push(output ?? {});
    }
  }

  /**
   * Every defined job with its schedule and its jobs kept by state (the operators' view,
   * AdminJobs): read from the queue's tables, so every replica answers the same.
   */
  async summary(): Promise<JobSummary[]> {
    await this.ready();
    const boss = this.started();
    const schedules = new Map((await boss.getSchedules()).map((s) => [s.name, s.cron]));
    const { rows } = await boss.getDb().executeSql(
      `select name, state, count(*)::int as n, max(completed_on) as last
       from ${JOB_QUEUE_SCHEMA}.job where name = any($1::text[]) group by name, state`,
      [this.names],
    );
    const counted = rows as { name: string; state: string; n: number; last: Date | string | null }[];
    return this.names.map((name) => {
      const of = (...states: string[]) =>
        counted.filter((r) => r.name === name && states.includes(r.state)).reduce((sum, r) => sum + r.n, 0);
      const last = counted.find((r) => r.name === name && r.state === 'completed')?.last;
      return {
        name,
        schedule: schedules.get(name) ?? this.definitions.get(name)?.schedule ?? null,
        queued: of('created', 'retry'),
        active: of('active'),
        failed: of('failed'),
        completed: of('completed'),
        lastCompletedAt: last ? new Date(last) : null,
      };
    });
  }

  /** A job as it stands (state, output), for the operator tools and the tests. */
  async job(name: string, id: string) {
    await this.ready();
    const [found] = await this.started().findJobs(name, { id });
    return found ?? null;
  }

  /** The schedules as the database holds them. */
  async schedules() {
    await this.ready();
    return this.started().getSchedules();
  }

  /** Stops taking jobs, lets the ones under way finish (up to `timeoutMs`), and disconnects. */
  async stop(timeoutMs = 10_000): Promise<void> {
    await this.starting?.catch(() => {});
    const boss = this.boss;
    if (!boss) return;
    this.boss = undefined;
    this.starting = undefined;
    this.working = false;
    await boss.stop({ graceful: true, timeout: timeoutMs });
  }

  private sendOptions(name: string, options: EnqueueOptions) {
    if (!this.definitions.has(name)) throw new Error(`No job is defined as ${name}`);
    return {
      ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}),
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    };
  }

  private started(): PgBoss {
    if (!this.boss) throw new Error('The job queue is not started (JobQueue.ready before a transaction that queues)');
    return this.boss;
  }
}
