import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/** The OpenAPI document, generated from the routes' zod schemas; served at GET /api/docs. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'My SoundID account service',
        version: '1.0.0',
        description:
          'Envelope: {Success, Result} or {Success: false, Fault}. Sign in with the AuthToken header, ' +
          'or the session cookie together with the Software header.',
      },
      components: {
        securitySchemes: { AuthToken: { type: 'apiKey', in: 'header', name: 'AuthToken' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
}
