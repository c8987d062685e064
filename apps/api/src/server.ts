import path from 'node:path';
import { buildApp } from './app';
import { type Config, ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { seedDemoData } from './features/licences/demo-seed';
import { systemClock, systemRandom } from './lib/clock';

/** Reads the configuration, migrates the database and listens: the only module that does. */
async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(
    config.databaseUrl
      ? { kind: 'postgres', url: config.databaseUrl }
      : { kind: 'pglite', dataDir: path.join(config.dataDir, 'pgdata') },
  );
  await database.migrate();
  const demo = config.isProduction
    ? undefined
    : await seedDemoData({
        db: database.db,
        clock: systemClock,
        random: systemRandom,
        appScheme: config.appLoginScheme,
      });
  const app = await buildApp({ config, database });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  const lines = [`My SoundID is running on ${config.publicUrl} (database: ${database.kind})`];
  if (!config.isProduction) {
    if (!config.smtpUrl)
      lines.push(`Dev mailbox: ${config.publicUrl}/api/dev/mail?to=<address> (links are also logged)`);
    lines.push(
      `Operator CLI: npm run admin -- --help (token in ${path.join(config.dataDir, 'admin-token')} unless ADMIN_TOKEN is set)`,
    );
    if (demo) lines.push('', ...demo);
  }
  console.log(`\n${lines.join('\n')}\n`);
}

main().catch((error) => {
  console.error('Start-up failed:', error);
  process.exit(1);
});
