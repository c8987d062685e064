import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import type { JsonSchema } from './json-schema-arbitrary';

/**
 * The service's routes as its OpenAPI document lists them (GET /api/docs), so the fuzz and
 * cross-customer suites cover every endpoint, including ones added after they were written.
 */
export interface ApiRoute {
  method: 'GET' | 'POST';
  /** The path with `{param}` placeholders. */
  template: string;
  body: JsonSchema | undefined;
  pathParams: { name: string; schema: JsonSchema }[];
  queryParams: { name: string; schema: JsonSchema }[];
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; schema: JsonSchema }[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export async function discoverRoutes(app: FastifyInstance): Promise<ApiRoute[]> {
  const doc = (await app.inject('/api/docs')).json() as { paths: Record<string, Record<string, OpenApiOperation>> };
  return Object.entries(doc.paths).flatMap(([template, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method: method.toUpperCase() as 'GET' | 'POST',
      template,
      body: operation.requestBody?.content?.['application/json']?.schema,
      pathParams: (operation.parameters ?? []).filter((p) => p.in === 'path'),
      queryParams: (operation.parameters ?? []).filter((p) => p.in === 'query'),
    })),
  );
}

export function fillPath(template: string, values: Record<string, string>): string {
  // A lone surrogate cannot be percent-encoded: it travels as U+FFFD, as a browser would send it.
  const wellFormed = (value: string) => Buffer.from(value, 'utf8').toString('utf8');
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(wellFormed(values[name] ?? 'x')));
}

export const routeLabel = (route: ApiRoute) => `${route.method} ${route.template}`;

/** Never a 5xx, never a stack trace, always the envelope; a refusal carries a named Fault. */
export function assertWellFormed(res: { statusCode: number; body: string }, label: string): void {
  expect(res.statusCode, label).toBeLessThan(500);
  expect(res.body, label).not.toMatch(/\bat [\w.<>]+ \(|node:internal|\.ts:\d+:\d+/);
  const parsed = JSON.parse(res.body) as { Success?: unknown; Fault?: { ExceptionName?: unknown } };
  expect(typeof parsed.Success, label).toBe('boolean');
  if (parsed.Success === false) expect(typeof parsed.Fault?.ExceptionName, label).toBe('string');
}
