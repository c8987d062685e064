// Module hooks (node:module register): names each resolved module of apps/api/src on stderr.
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  if (result.url.includes('/apps/api/src/')) console.error(`module loaded: ${result.url}`);
  return result;
}
