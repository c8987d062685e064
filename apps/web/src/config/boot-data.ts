import type { User } from '@soundid/contracts';
import type { DehydratedState } from '@tanstack/react-query';
import type { PublicConfig } from './public-config';

/**
 * What the service writes into every page it serves (ADR 0024), so that the SPA starts without a
 * round trip for it: the public configuration, and whether the request came without a session
 * cookie (then nobody is signed in, and the start-up has no session to ask about). A signed-in
 * screen rendered with its data also brings the session's user and the query cache it was
 * rendered from, which the SPA starts with.
 */
export interface BootData {
  config: PublicConfig;
  signedOut: boolean;
  user?: User;
  queries?: DehydratedState;
}

export const BOOT_DATA_ID = 'boot-data';

/**
 * A JSON data block: never executed, so the CSP's script-src does not apply. `<` is escaped so
 * that no value (a redirect target's name, say) can close the element.
 */
export function bootDataElement(boot: BootData): string {
  const json = JSON.stringify(boot).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${BOOT_DATA_ID}">${json}</script>`;
}

/** The page's boot data, or undefined (a page the service did not write: `vite` dev, tests). */
export function readBootData(document: Document): BootData | undefined {
  const text = document.getElementById(BOOT_DATA_ID)?.textContent;
  if (!text) return undefined;
  try {
    const boot = JSON.parse(text) as Partial<BootData>;
    if (typeof boot.config !== 'object' || boot.config === null || typeof boot.signedOut !== 'boolean')
      return undefined;
    return boot as BootData;
  } catch {
    return undefined;
  }
}
