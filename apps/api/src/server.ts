import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { type Config, ConfigError, loadConfig } from './config';
import type { DatabaseHandle } from './db/client';
import type { JobQueue } from './integrations/job-queue';
import { systemClock, systemRandom } from './lib/clock';
import { acquireDataDirLock, type DataDirLock, DataDirLocked } from './lib/data-dir-lock';
import { bindPort, type PortGate, PortTaken } from './lib/port-gate';
import { securityHeadersOf } from './plugins/security-headers';

/**
 * Reads the configuration, binds the port, takes the data directory (embedded database only),
 * migrates and listens: the only module that does. The order is ADR 0027's: a port or a data
 * directory already in use stops the start-up before the database is opened. The application
 * (every feature, the database driver, the seeds) is loaded only after both are taken, so a
 * refused start answers in the time it takes to read the configuration, not to load the whole
 * service (seconds of CPU on a busy machine).
 */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) refuse(error.message);
    throw error;
  }

  let gate: PortGate | undefined;
  let lock: DataDirLock | undefined;
  let database: DatabaseHandle | undefined;
  let app: FastifyInstance | undefined;
  let jobs: JobQueue | undefined;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app?.log.info({ signal }, 'shutting down');
    await gate?.close();
    // Jobs under way finish before the database closes (ADR 0051).
    await jobs?.stop();
    await app?.close();
    await database?.close();
    lock?.release();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // However the process ends short of SIGKILL, the directory is not left marked as taken.
  process.on('exit', () => lock?.release());

  try {
    gate = await bindPort(config.port, config.host, securityHeadersOf(config));
  } catch (error) {
    if (error instanceof PortTaken) refuse(error.message);
    throw error;
  }
  const { port } = gate.server.address() as { port: number };

  if (!config.databaseUrl) {
    try {
      lock = acquireDataDirLock(config.dataDir, { port });
    } catch (error) {
      if (error instanceof DataDirLocked) refuse(error.message);
      throw error;
    }
  }

  const [{ composeApp }, { openDatabase }] = await Promise.all([import('./app'), import('./db/client')]);
  database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
  );
  await database.migrate();
  const composed = await composeApp({ config, database, serverFactory: gate.serverFactory });
  app = composed.app;
  // The demo seeds are development stand-ins: production never loads them.
  let demo: string[] | undefined;
  let demoReleases: string[] | undefined;
  if (!config.isProduction) {
    const [{ seedDemoData }, { seedDemoReleases }] = await Promise.all([
      import('./dev/demo-seed'),
      import('./dev/demo-releases'),
    ]);
    demo = await seedDemoData({
      db: database.db,
      clock: systemClock,
      random: systemRandom,
      licences: composed.services.licences,
      passwordHashCost: config.passwordHashCost,
    });
    demoReleases = await seedDemoReleases({ db: database.db, releases: composed.services.releases });
  }
  await app.ready();
  if (closing) return;
  jobs = composed.services.jobs;
  await jobs.start({ work: config.jobWorkers });
  gate.open();

  const lines = [`My SoundID is running on ${config.publicUrl} (database: ${database.kind})`];
  if (!config.isProduction) {
    if (!config.smtpUrl)
      lines.push(`Dev mailbox: ${config.publicUrl}/api/dev/mail?to=<address> (links are also logged)`);
    lines.push(
      'Operator CLI: npm run admin -- --help; the first admin: npm run admin -- bootstrap --email <you> --name <name>',
      `  (bootstrap token in ${path.join(config.dataDir, 'admin-token')} unless ADMIN_TOKEN is set; README, Operator CLI)`,
      `Back-office console: ${config.publicUrl}/console (open the invitation link, then sign in; README, Back-office console)`,
    );
    if (demo) lines.push('', ...demo);
    if (demoReleases) lines.push('', ...demoReleases);
  }
  console.log(`\n${lines.join('\n')}\n`);
}

/** A start-up refused for a reason the operator can act on: the message, no stack trace, exit 1. */
function refuse(message: string): never {
  console.error(message);
  process.exit(1);
}

main().catch((error) => {
  console.error('Start-up failed:', error);
  process.exit(1);
});
