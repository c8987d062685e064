import fc from 'fast-check';

/**
 * fast-check arbitraries for the JSON Schemas of the OpenAPI document, which the service
 * derives from each route's zod schema (z.toJSONSchema through fastify-type-provider-zod).
 * Generating from the served document keeps the fuzz suite generic: a route merged later is
 * fuzzed with bodies of its own shape without a change here. ADR 0011 says why not a library.
 *
 * Covers the keywords those documents use: type, properties, required, additionalProperties,
 * enum, const, anyOf/oneOf, items, minItems/maxItems, minLength/maxLength, pattern, format,
 * minimum/maximum and both spellings of exclusiveMinimum/Maximum (OpenAPI 3.0 booleans, numbers).
 */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  nullable?: boolean;
}

/** Arrays longer than this are not generated: a bounded run should not ask for 10,000 serials. */
const MAX_ARRAY_ITEMS = 8;

/**
 * Values of the domain (keys, codes, serials, ids) by the name of the field they go in (`*`:
 * any field without its own), for
 * strings whose rule the schema cannot show (a zod refinement becomes a plain "string"):
 * without them such bodies never get past validation and the code behind it is never reached.
 */
export type Samples = Readonly<Record<string, readonly string[]>>;

export interface SchemaArbitraryOptions {
  samples?: Samples;
  /** The property (or parameter) the schema is for, to pick its samples. */
  field?: string;
}

export function arbitraryFromJsonSchema(
  schema: JsonSchema,
  options: SchemaArbitraryOptions = {},
): fc.Arbitrary<unknown> {
  const base = baseArbitrary(schema, options);
  return schema.nullable ? fc.oneof(base, fc.constant(null)) : base;
}

function baseArbitrary(schema: JsonSchema, options: SchemaArbitraryOptions): fc.Arbitrary<unknown> {
  const nested = (inner: JsonSchema, field = options.field) => arbitraryFromJsonSchema(inner, { ...options, field });
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => nested(alternative)));
  const type = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (type.length > 1) return fc.oneof(...type.map((one) => nested({ ...schema, type: one })));
  switch (type[0]) {
    case 'object':
      return objectArbitrary(schema, nested);
    case 'array':
      return fc.array(schema.items ? nested(schema.items) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? MAX_ARRAY_ITEMS, MAX_ARRAY_ITEMS)),
      });
    case 'string':
      return stringArbitrary(
        schema,
        (options.field && options.samples?.[options.field]) || options.samples?.['*'] || [],
      );
    case 'integer':
      return fc.integer(numericBounds(schema, 1));
    case 'number':
      return fc.double({ ...numericBounds(schema, Number.MIN_VALUE), noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue();
  }
}

function objectArbitrary(
  schema: JsonSchema,
  nested: (inner: JsonSchema, field?: string) => fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([key, value]) => [key, nested(value, key)]),
  );
  const known = fc.record(properties, { requiredKeys: schema.required ?? [] });
  if (schema.additionalProperties === undefined || schema.additionalProperties === false) return known;
  const extra = schema.additionalProperties === true ? fc.jsonValue() : nested(schema.additionalProperties);
  return fc
    .tuple(known, fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), extra, { maxKeys: 3 }))
    .map(([own, more]) => ({ ...more, ...(own as object) }));
}

/** Inclusive integer or double bounds, the exclusive ones moved inwards by `step`. */
function numericBounds(schema: JsonSchema, step: number): { min: number; max: number } {
  const exclusiveMin =
    typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum : schema.exclusiveMinimum && schema.minimum;
  const exclusiveMax =
    typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum : schema.exclusiveMaximum && schema.maximum;
  const min = typeof exclusiveMin === 'number' ? exclusiveMin + step : (schema.minimum ?? -1_000_000_000);
  const max = typeof exclusiveMax === 'number' ? exclusiveMax - step : (schema.maximum ?? 1_000_000_000);
  return { min, max };
}

/** Text from any of the planes, composed graphemes and plain ASCII alike. */
const anyUnit = fc.constantFrom('grapheme' as const, 'grapheme-composite' as const, 'binary' as const);

function stringArbitrary(schema: JsonSchema, samples: readonly string[]): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, 200);
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'email') return fc.emailAddress().filter(fits);
  if (schema.pattern) {
    // "^[class]+$": draw each character from the class, so that any length bound is easy to meet.
    const repeated = /^\^(\[[^\]]+\])[+*]\$$/.exec(schema.pattern);
    if (repeated) {
      return fc.string({ unit: fc.stringMatching(new RegExp(`^${repeated[1]}$`)), minLength, maxLength });
    }
    return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  }
  const text = anyUnit.chain((unit) => fc.string({ unit, minLength, maxLength })).filter(fits);
  const fitting = samples.filter(fits);
  if (fitting.length === 0) return text;
  return fc.oneof({ arbitrary: text, weight: 1 }, { arbitrary: fc.constantFrom(...fitting), weight: 3 });
}
