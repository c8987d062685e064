import { SAVED_HEADERS_STORAGE_KEY } from '../config/client';

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
/** Headers a link must never be able to set: they decide who is signed in or how the body is read. */
const FORBIDDEN = new Set(['authtoken', 'cookie', 'content-type', 'content-length', 'host']);

function sanitize(value: unknown): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  const headers: Record<string, string> = {};
  for (const [name, headerValue] of Object.entries(value)) {
    if (!HEADER_NAME.test(name) || FORBIDDEN.has(name.toLowerCase())) continue;
    if (typeof headerValue === 'string' || typeof headerValue === 'number' || typeof headerValue === 'boolean') {
      headers[name] = String(headerValue);
    }
  }
  return headers;
}

/** Saves the `headers` query (a JSON object); returns false when it is not one. */
export function saveHeadersFromQuery(json: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return false;
  }
  const headers = sanitize(parsed);
  localStorage.setItem(SAVED_HEADERS_STORAGE_KEY, JSON.stringify(headers));
  return true;
}

export function loadSavedHeaders(): Record<string, string> {
  const stored = localStorage.getItem(SAVED_HEADERS_STORAGE_KEY);
  if (!stored) return {};
  try {
    return sanitize(JSON.parse(stored));
  } catch {
    return {};
  }
}
