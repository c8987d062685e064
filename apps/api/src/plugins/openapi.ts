import swagger from '@fastify/swagger';
import {
  type CallAuth,
  CONSOLE_COOKIE_PATH,
  CONSOLE_COOKIE_PLAIN,
  CONSOLE_COOKIE_SECURE,
  operationAt,
  SESSION_COOKIE_PLAIN,
  SESSION_COOKIE_SECURE,
} from '@soundid/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';

type SecurityRequirement = Record<string, string[]>;

/**
 * Who may make a call, in OpenAPI's terms (docs/api.md, Session): a customer signs in with the
 * AuthToken header, or with the session cookie together with the Software header.
 */
const SECURITY: Record<CallAuth, SecurityRequirement[]> = {
  session: [{ AuthToken: [] }, { SessionCookie: [], Software: [] }],
  app: [{ AuthToken: [] }],
  optional: [{ AuthToken: [] }, { SessionCookie: [], Software: [] }, {}],
  operator: [{ OperatorToken: [] }, { ConsoleCookie: [], Software: [] }],
  bootstrap: [{ BootstrapToken: [] }],
  signature: [],
  none: [],
};

type RouteSchema = Record<string, unknown> & { hide?: boolean };

/**
 * The OpenAPI document, generated from the routes' zod schemas (bodies and results of
 * packages/contracts); served at GET /api/docs. Each operation is named after its call
 * (operationId), with the summary and the sign-in of `callRoutes` (docs/api.md, Typed results).
 */
export async function registerOpenApi(app: FastifyInstance, { publicUrl }: { publicUrl: string }): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'My SoundID account service',
        version: '1.0.0',
        description:
          'Envelope: {Success, Result} or {Success: false, Fault} (docs/api.md). Sign in with the AuthToken ' +
          'header, or the session cookie together with the Software header.',
        license: { name: 'Proprietary', url: `${publicUrl}/` },
      },
      // Relative: the service that serves the document (PUBLIC_URL), whichever deployment it is.
      servers: [{ url: '/', description: 'This service' }],
      components: {
        securitySchemes: {
          AuthToken: { type: 'apiKey', in: 'header', name: 'AuthToken', description: 'The session token (JWT).' },
          SessionCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: SESSION_COOKIE_SECURE,
            description: `The HttpOnly session cookie (\`${SESSION_COOKIE_PLAIN}\` over plain http on localhost); counts only with the Software header.`,
          },
          Software: { type: 'apiKey', in: 'header', name: 'Software', description: 'Sent by the SPA and the apps.' },
          OperatorToken: {
            type: 'http',
            scheme: 'bearer',
            description: "An operator's personal API token (npm run admin -- login), ADR 0044.",
          },
          ConsoleCookie: {
            type: 'apiKey',
            in: 'cookie',
            name: CONSOLE_COOKIE_SECURE,
            description: `The console's HttpOnly session cookie (\`${CONSOLE_COOKIE_PLAIN}\` over plain http), Path=${CONSOLE_COOKIE_PATH}; counts only with the Software header.`,
          },
          BootstrapToken: {
            type: 'http',
            scheme: 'bearer',
            description: 'ADMIN_TOKEN: creates the first admin, nothing else (ADR 0044).',
          },
        },
      },
    },
    transform: (document) => {
      const transformed = jsonSchemaTransform(document);
      const schema = transformed.schema as RouteSchema | undefined;
      if (!schema || schema.hide) return transformed;
      const method = String(document.route.method);
      const operation = operationAt(method, document.url);
      if (!operation) return transformed;
      return {
        ...transformed,
        schema: {
          ...schema,
          operationId: operation.name,
          summary: operation.summary,
          security: SECURITY[operation.auth],
        },
      };
    },
    transformObject: (document) => {
      const object = jsonSchemaTransformObject(document) as { components?: { schemas?: Record<string, unknown> } };
      // The Fault envelope is only ever an answer: its request-side twin is never referred to.
      delete object.components?.schemas?.FaultEnvelopeInput;
      return object as ReturnType<typeof jsonSchemaTransformObject>;
    },
  });
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());
}
