import { type OperatorCallName, type OperatorRole, operatorCallRoles } from '@soundid/contracts';

/**
 * Whether roles admit a call (`operatorCallRoles`, the contract the service enforces on every
 * request, ADR 0044). The console shows only what the signed-in operator may do; the service
 * refuses the rest whatever the console shows.
 */
export function allows(roles: readonly OperatorRole[], call: OperatorCallName): boolean {
  const admitted: readonly OperatorRole[] = operatorCallRoles[call];
  return roles.some((role) => admitted.includes(role));
}
