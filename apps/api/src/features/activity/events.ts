import type { AccountEventKind } from '@soundid/contracts';
import { accountEvents } from '../../db/activity-schema';
import type { Queryable } from '../../db/client';

/**
 * An entry of My activity that no trigger writes (docs/decisions/0055-my-activity.md): a change
 * that leaves no row with its time (two-step verification turned off, a passkey or a licence key
 * removed) and the report itself. Called with the transaction of the change it describes.
 */
export async function recordAccountEvent(
  tx: Queryable,
  entry: {
    userId: string;
    at: Date;
    kind: AccountEventKind;
    productCode?: string;
    detail?: string;
    reportedEventId?: number;
  },
): Promise<void> {
  await tx.insert(accountEvents).values(entry);
}
