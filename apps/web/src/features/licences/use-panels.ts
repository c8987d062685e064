import { useCallback, useLayoutEffect, useState } from 'react';

/**
 * The page's panels (devices, upgrade, licence removal, passing on, offline activation) are mutually
 * exclusive: one id names the open panel, so opening one closes the others. The id is mirrored
 * into the URL hash, so a reload or a shared link with that hash opens the panel again
 * (ADR 0013). The hash is written with history.replaceState, not a router navigation: a panel
 * is not a page (Back leaves the page), and the state stays a plain, synchronous React state.
 */
export type PanelKind = 'devices' | 'upgrade' | 'remove' | 'transfer' | 'offline';

/** The voice AI licence's devices panel: its list has no ProductName of its own. */
export const VOICE_AI_PANEL_TARGET = 'voice-ai';

export function panelId(kind: PanelKind, target = ''): string {
  return kind === 'offline' ? 'offline-activation' : `${kind}-${target}`;
}

export interface Panels {
  /** The open panel's id, or '' when none is open. */
  openId: string;
  isOpen(id: string): boolean;
  toggle(id: string): void;
  close(): void;
}

function readHash(): string {
  try {
    return decodeURIComponent(window.location.hash.replace(/^#/, ''));
  } catch {
    return '';
  }
}

function writeHash(id: string): void {
  const { pathname, search } = window.location;
  // The router's own entry state is kept: only the fragment changes.
  window.history.replaceState(window.history.state, '', `${pathname}${search}${id ? `#${id}` : ''}`);
}

export function usePanels(): Panels {
  const [openId, setOpenId] = useState('');
  // Read once drawn: the service renders the page without the hash, which browsers keep to
  // themselves, and the app's first render must be the one it sent (ADR 0024).
  // Later the hash changes by the visitor's hand (a link pasted on the page, Back over a hash the
  // visitor typed) open what it names; the page's own replaceState writes fire no hashchange.
  useLayoutEffect(() => {
    const id = readHash();
    if (id) setOpenId(id);
    const follow = () => setOpenId(readHash());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const show = useCallback((id: string) => {
    setOpenId(id);
    writeHash(id);
  }, []);
  return {
    openId,
    isOpen: (id) => openId === id,
    toggle: (id) => show(openId === id ? '' : id),
    close: () => show(''),
  };
}
