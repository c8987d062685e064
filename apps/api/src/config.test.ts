import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'soundid-config-'));

describe('loadConfig', () => {
  it('runs with nothing set: embedded defaults and secrets generated once, owner-only', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config).toMatchObject({
      port: 3000,
      publicUrl: 'http://localhost:3000',
      databaseUrl: undefined,
      appTarget: 'reference',
    });
    expect(readFileSync(path.join(dir, 'admin-token'), 'utf8').trim()).toBe(config.adminToken);
    expect(statSync(path.join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: dir }).sessionSecret).toBe(config.sessionSecret);
  });

  it('names each bad variable', () => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', DATABASE_URL: 'nope' })).toThrow(ConfigError);
    try {
      loadConfig({ DATA_DIR: dataDir(), PORT: 'eighty', REDIRECT_TARGETS: '[{' });
    } catch (error) {
      expect((error as Error).message).toMatch(/PORT/);
      expect((error as Error).message).toMatch(/REDIRECT_TARGETS/);
    }
  });

  it('requires real secrets and services in production', () => {
    try {
      loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() });
      expect.unreachable();
    } catch (error) {
      for (const name of ['SESSION_SECRET', 'DATABASE_URL', 'PUBLIC_URL', 'ADMIN_TOKEN', 'SMTP_URL']) {
        expect((error as Error).message).toContain(name);
      }
    }
  });
});
