import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { bindPort, PortTaken } from './port-gate';

/** The port bound before the database is opened (ADR 0027): 503 until the service is ready. */
describe('port gate', () => {
  it('answers every request with a 503 ServiceUnavailable Fault until opened, then Fastify answers', async () => {
    const gate = await bindPort(0, '127.0.0.1', { 'x-content-type-options': 'nosniff' });
    const { port } = gate.server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    try {
      // Liveness: the process is up, and says it is starting (no restart during a long migration).
      const health = await fetch(`${base}/api/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ Success: true, Result: { Status: 'starting' } });
      for (const url of ['/api/ready', '/api/accounts/LoginByEmail', '/']) {
        const res = await fetch(`${base}${url}`, { method: url.includes('Login') ? 'POST' : 'GET' });
        expect(res.status).toBe(503);
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(await res.json()).toMatchObject({
          Success: false,
          Fault: { ExceptionName: 'ServiceUnavailable', ExceptionCode: 503 },
        });
      }
      const app = Fastify({ serverFactory: gate.serverFactory });
      app.get('/api/ready', async () => ({ Success: true }));
      await app.ready();
      expect((await fetch(`${base}/api/ready`)).status).toBe(503);
      gate.open();
      const ready = await fetch(`${base}/api/ready`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ Success: true });
      await app.close();
    } finally {
      await gate.close();
    }
    expect(gate.server.listening).toBe(false);
  });

  it('refuses a port already in use with a message naming it (no stack, nothing opened)', async () => {
    const first = await bindPort(0, '127.0.0.1');
    const { port } = first.server.address() as { port: number };
    try {
      const refused = await bindPort(port, '127.0.0.1').then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(refused).toBeInstanceOf(PortTaken);
      expect((refused as Error).message).toBe(
        `My SoundID cannot start: 127.0.0.1:${port} is already in use (another My SoundID, or another program). Nothing was opened or changed.`,
      );
    } finally {
      await first.close();
    }
  });
});
