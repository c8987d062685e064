import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Fault } from '../../lib/fault';
import { constantTimeEqual } from '../../lib/secrets';

/** An onRequest hook admitting only requests with the operator token as Bearer. */
export function requireOperator(app: FastifyInstance) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !constantTimeEqual(token, app.deps.config.adminToken)) throw new Fault('AdminTokenInvalid');
  };
}
