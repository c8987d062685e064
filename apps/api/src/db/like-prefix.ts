/**
 * A LIKE pattern of everything that starts with `text`: its own `%`, `_` and `\` are escaped, so
 * that an operator's search for `a_b` finds `a_b…` and not `axb…`.
 */
export function likePrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
