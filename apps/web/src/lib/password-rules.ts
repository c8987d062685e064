import { repeatedPasswordError } from '@soundid/contracts';
import type { z } from 'zod';

/** A form choosing a new password: the repetition must equal it (docs/requirements.md §5). */
export function checkRepeatedPassword(
  values: { password: string; repeatPassword: string },
  context: z.RefinementCtx,
): void {
  const message = repeatedPasswordError(values.password, values.repeatPassword);
  if (message) context.addIssue({ code: 'custom', path: ['repeatPassword'], message });
}
