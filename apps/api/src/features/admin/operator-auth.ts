import type { FastifyRequest } from 'fastify';
import { Fault } from '../../lib/fault';
import { constantTimeEqual } from '../../lib/secrets';

/** An onRequest hook admitting only requests with the operator token (ADMIN_TOKEN) as Bearer. */
export function requireOperator(adminToken: string) {
  return async (request: FastifyRequest) => {
    const header = request.headers.authorization ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    if (!token || !constantTimeEqual(token, adminToken)) throw new Fault('AdminTokenInvalid');
  };
}
