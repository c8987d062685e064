import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// jsdom has no <dialog> modality; the console needs only the calls and the open state.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
  // As a browser does: Escape in an open dialog fires a cancelable `cancel`, then closes it.
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    const open = [...document.querySelectorAll<HTMLDialogElement>('dialog[open]')].at(-1);
    if (open?.dispatchEvent(new Event('cancel', { cancelable: true }))) open.close();
  });
}

configure({ asyncUtilTimeout: 4000 });

beforeEach(() => {
  sessionStorage.clear();
  window.history.replaceState(null, '', '/console/');
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});
