import {
  type DocumentNode,
  execute,
  type FragmentDefinitionNode,
  GraphQLError,
  Kind,
  parse,
  type SelectionSetNode,
  validate,
} from 'graphql';
import { rootResolvers } from './resolvers';
import { storefrontSchema } from './schema';
import type { SandboxStorefront } from './storefront';

/**
 * One Storefront API request to the sandbox, answered in GraphQL's shape as Shopify answers:
 * 200 with `data` and/or `errors` for anything GraphQL itself can judge (syntax, validation,
 * field errors), 400 for a body that is not a GraphQL request, 401 for a missing or wrong
 * access token. Queries are bounded (tokens, depth) so that no request costs much.
 */
export interface GraphQLHttpAnswer {
  status: number;
  body: { data?: unknown; errors?: FormattedError[]; extensions?: Record<string, unknown> };
}

interface FormattedError {
  message: string;
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
  extensions?: Record<string, unknown>;
}

const MAX_TOKENS = 2000;
const MAX_DEPTH = 12;
export const INTERNAL_ERROR = 'Internal error. Looks like something went wrong on our end.';

export interface GraphQLRequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export function badRequest(message: string, status = 400): GraphQLHttpAnswer {
  return {
    status,
    body: { errors: [{ message, extensions: { code: status === 401 ? 'UNAUTHORIZED' : 'BAD_REQUEST' } }] },
  };
}

export async function executeStorefrontRequest(
  store: SandboxStorefront,
  request: GraphQLRequestBody,
  onInternalError: (error: unknown) => void,
): Promise<GraphQLHttpAnswer> {
  const { query, variables, operationName } = request;
  if (typeof query !== 'string' || query.trim() === '') return badRequest('Parameter "query" is required.');
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) {
    return badRequest('Parameter "variables" must be an object.');
  }
  if (operationName != null && typeof operationName !== 'string') {
    return badRequest('Parameter "operationName" must be a string.');
  }

  let document: DocumentNode;
  try {
    document = parse(query, { maxTokens: MAX_TOKENS });
  } catch (error) {
    return { status: 200, body: { errors: [format(error as GraphQLError)] } };
  }
  const schema = storefrontSchema();
  const invalid = validate(schema, document);
  if (invalid.length > 0) return { status: 200, body: { errors: invalid.map(format) } };
  const depth = queryDepth(document);
  if (depth > MAX_DEPTH) {
    return {
      status: 200,
      body: {
        errors: [
          {
            message: `Query has depth of ${depth}, which exceeds max depth of ${MAX_DEPTH}`,
            extensions: { code: 'MAX_DEPTH_EXCEEDED' },
          },
        ],
      },
    };
  }

  const result = await execute({
    schema,
    document,
    rootValue: rootResolvers(store),
    variableValues: (variables as Record<string, unknown> | null | undefined) ?? undefined,
    operationName: operationName ?? undefined,
  });
  const errors = result.errors?.map((error) => {
    // A failure of the sandbox itself (not of the request) shows as Shopify shows its own.
    if (error.originalError && !(error.originalError instanceof GraphQLError)) {
      onInternalError(error.originalError);
      return {
        message: INTERNAL_ERROR,
        ...(error.path ? { path: [...error.path] } : {}),
        extensions: { code: 'INTERNAL_SERVER_ERROR' },
      };
    }
    return format(error);
  });
  return {
    status: 200,
    body: { ...(result.data !== undefined ? { data: result.data } : {}), ...(errors ? { errors } : {}) },
  };
}

function format(error: GraphQLError): FormattedError {
  const formatted = error.toJSON();
  return {
    message: formatted.message,
    ...(formatted.locations ? { locations: [...formatted.locations] } : {}),
    ...(formatted.path ? { path: [...formatted.path] } : {}),
    ...(formatted.extensions && Object.keys(formatted.extensions).length > 0
      ? { extensions: { ...formatted.extensions } }
      : {}),
  };
}

/** The deepest field nesting of any operation, fragments expanded (validation ruled out fragment cycles). */
function queryDepth(document: DocumentNode): number {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const depthOf = (set: SelectionSetNode | undefined): number => {
    if (!set) return 0;
    let deepest = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        deepest = Math.max(deepest, selection.selectionSet ? 1 + depthOf(selection.selectionSet) : 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        deepest = Math.max(deepest, depthOf(selection.selectionSet));
      } else {
        deepest = Math.max(deepest, fragmentDepth(selection.name.value));
      }
    }
    return deepest;
  };
  // Each fragment's depth once: a fragment spread many times must not be walked many times.
  const known = new Map<string, number>();
  const fragmentDepth = (name: string): number => {
    const cached = known.get(name);
    if (cached !== undefined) return cached;
    const depth = depthOf(fragments.get(name)?.selectionSet);
    known.set(name, depth);
    return depth;
  };
  let deepest = 0;
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) deepest = Math.max(deepest, depthOf(definition.selectionSet));
  }
  return deepest;
}
