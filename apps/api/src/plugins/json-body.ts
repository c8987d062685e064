import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';
import { Fault } from '../lib/fault';

/**
 * JSON bodies: an empty body counts as {} (several calls have none), prototype-poisoning
 * keys are refused, and a parse failure is a 400 Fault rather than Fastify's own error.
 */
export function registerJsonBody(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      done(new Fault('RequestInvalid', {}, 'The request body is not valid JSON.'), undefined);
    }
  });
  app.addHook('preValidation', (request, _reply, done) => {
    if (request.method === 'POST' && request.body === undefined) request.body = {};
    done();
  });
}
