import http from 'node:http';
import type { FastifyServerFactory } from 'fastify';
import { Fault } from './fault';

/**
 * The service's port, bound before anything else happens (ADR 0027): a port already taken
 * stops the start-up before the data directory is locked or the database opened, migrated or
 * seeded. Until the service is built and its database migrated, every request (readiness probe
 * included) gets a 503 ServiceUnavailable Fault, except the liveness probe, which says 'starting'; then Fastify, given this server through its
 * serverFactory option, answers on it.
 */
export interface PortGate {
  server: http.Server;
  /** For Fastify({ serverFactory }): the server above, Fastify's handler kept for open(). */
  serverFactory: FastifyServerFactory;
  /** Hands every further request to Fastify (call after app.ready()). */
  open(): void;
  /** Stops accepting connections and ends the idle ones; in-flight requests finish. */
  close(): Promise<void>;
}

export class PortTaken extends Error {
  constructor(
    readonly host: string,
    readonly port: number,
    readonly code: string,
  ) {
    super(
      code === 'EADDRINUSE'
        ? `My SoundID cannot start: ${host}:${port} is already in use (another My SoundID, or another program). Nothing was opened or changed.`
        : `My SoundID cannot start: it may not listen on ${host}:${port} (${code}). Nothing was opened or changed.`,
    );
    this.name = 'PortTaken';
  }
}

const notReady = JSON.stringify({ Success: false, Fault: new Fault('ServiceUnavailable').toBody() });
/** Liveness stays true while starting (docs/api.md: health is "process up"), so a long migration is not restarted. */
const starting = JSON.stringify({ Success: true, Result: { Status: 'starting' } });

export async function bindPort(port: number, host: string, headers: Record<string, string> = {}): Promise<PortGate> {
  let handler: ((request: http.IncomingMessage, response: http.ServerResponse) => void) | undefined;
  let fastifyHandler: typeof handler;
  const server = http.createServer((request, response) => {
    if (handler) return handler(request, response);
    request.resume();
    if (request.method === 'GET' && request.url === '/api/health') {
      response.writeHead(200, {
        ...headers,
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'close',
      });
      response.end(starting);
      return;
    }
    response.writeHead(503, {
      ...headers,
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': '1',
      connection: 'close',
    });
    response.end(notReady);
  });
  await new Promise<void>((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(new PortTaken(host, port, error.code ?? 'unknown'));
    server.once('error', failed);
    server.listen({ port, host }, () => {
      server.off('error', failed);
      resolve();
    });
  });

  const serverFactory: FastifyServerFactory = (fastify, options) => {
    fastifyHandler = fastify;
    // What Fastify sets on a server it creates itself (lib/server.js), kept the same here.
    const timeout = (name: string, fallback: number) =>
      typeof options[name] === 'number' ? (options[name] as number) : fallback;
    server.keepAliveTimeout = timeout('keepAliveTimeout', 72_000);
    server.requestTimeout = timeout('requestTimeout', 0);
    server.setTimeout(timeout('connectionTimeout', 0));
    return server;
  };
  return {
    server,
    serverFactory,
    open: () => {
      if (!fastifyHandler) throw new Error('open() before Fastify was built on this server');
      handler = fastifyHandler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        if (!server.listening) return resolve();
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
