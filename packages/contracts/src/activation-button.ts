import type { ActionButton, ServerAction } from './calls/licences';
import { ActivationType } from './constants';

// Without zod, like licence-rules.ts: Licenses & Devices loads without it
// (docs/decisions/0043-signed-in-page-main-thread-work.md). It only reads the list's types.

// ── The activation button (docs/requirements.md §4) ────────────────

/** The activation types of the spec by name, as the voice AI activate page takes them in its query. */
export const ACTIVATION_TYPE_NAMES = { normal: ActivationType.Normal, trial: ActivationType.Trial } as const;
export type ActivationTypeName = keyof typeof ACTIVATION_TYPE_NAMES;

export function isActivationTypeName(value: string | null | undefined): value is ActivationTypeName {
  return value === 'normal' || value === 'trial';
}

/** A server action id containing 'starttrial' means trial, 'activate' normal; anything else is unsupported. */
export function activationTypeOf(serverActionId: string): ActivationTypeName | undefined {
  const id = serverActionId.toLowerCase();
  if (id.includes('starttrial')) return 'trial';
  if (id.includes('activate')) return 'normal';
  return undefined;
}

export interface ActivationChoice {
  button: ActionButton;
  type: ActivationTypeName;
  /** The app deeplink the button opens. */
  deeplink: string;
  serverAction: ServerAction;
}

/** What an action button activates, when it is an enabled DeepLink with a recognised server action. */
export function activationOf(button: ActionButton): ActivationChoice | undefined {
  const request = button.ExternalRequest;
  if (!button.IsEnabled || button.Type !== 'DeepLink' || !request?.ServerAction) return undefined;
  const type = activationTypeOf(request.ServerAction.Id);
  return type ? { button, type, deeplink: request.Url, serverAction: request.ServerAction } : undefined;
}

/** Only the first enabled DeepLink button with a server action of a recognised type activates. */
export function findActivationButton(buttons: readonly ActionButton[]): ActivationChoice | undefined {
  for (const button of buttons) {
    const choice = activationOf(button);
    if (choice) return choice;
  }
  return undefined;
}
