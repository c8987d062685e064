import type { ActivationChoice } from '@soundid/contracts';

/** The voice AI activate page, told which deeplink to open and how (spec: activationType normal or trial). */
export function voiceAiActivatePath(choice: Pick<ActivationChoice, 'deeplink' | 'type'>): string {
  return `/products/voice-ai/activate?${new URLSearchParams({ deeplink: choice.deeplink, activationType: choice.type })}`;
}

/** The launch screen opens a desktop-app deeplink, with Retry and Go to downloads. */
export function launchPath(deeplink: string): string {
  return `/launch?${new URLSearchParams({ deeplink })}`;
}
