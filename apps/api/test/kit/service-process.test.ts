import { describe, expect, it } from 'vitest';
import { startService } from './service-process';

/**
 * The kit's service processes (ADR 0035). Once, on the embedded database: the PostgreSQL project
 * would start the same process again.
 */
describe.runIf(process.env.TEST_DB_KIND !== 'postgres')("a test's service process", () => {
  it('serves no portal build, even where `npm run build` left one (ADR 0035, the suites at once)', async () => {
    const service = await startService(undefined, {});
    try {
      const page = await fetch(`${service.url}/login`);
      expect(page.headers.get('content-type') ?? '').not.toContain('text/html');
      expect(await page.text()).not.toContain('id="root"');
      expect((await fetch(`${service.url}/api/ready`)).status).toBe(200);
    } finally {
      await service.stop();
    }
    // A first start on an empty data directory creates and migrates the database: seconds alone,
    // over half a minute beside the browser suite on 2 cores (seen: the default 30 s ran out).
  }, 120_000);
});
