import { createStore } from '../../lib/create-store';

/** A desktop app's portal link met while another customer is signed in here: the question to ask. */
export interface PendingSwitch {
  code: string;
  currentEmail: string;
  linkEmail: string;
}

/**
 * The switch the customer is asked about (ADR 0029); null when there is none. Apart from the
 * exchange and the dialog, which load only when a link is opened (the /login budget, ADR 0020).
 */
export const pendingSwitchStore = createStore<PendingSwitch | null>(null);
