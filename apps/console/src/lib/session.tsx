import type { CallResult, OperatorCallName } from '@soundid/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';
import type { Location } from 'react-router';
import { post } from './api';
import { allows } from './roles';

export type Me = CallResult<'OperatorMe'>;

/** The query of the signed-in operator (OperatorMe): who, and with which roles. */
const ME_QUERY = ['OperatorMe'] as const;

export function useMeQuery() {
  return useQuery({ queryKey: ME_QUERY, queryFn: () => post('OperatorMe', {}) });
}

/**
 * Whether this tab signed in: a session fault after it means the session ended (15 minutes
 * without a call, 12 hours, or ended elsewhere), which sign-in then says.
 */
const SIGNED_IN_KEY = 'console.signedIn';
export const signedInTab = {
  mark: () => sessionStorage.setItem(SIGNED_IN_KEY, '1'),
  clear: () => sessionStorage.removeItem(SIGNED_IN_KEY),
  was: () => sessionStorage.getItem(SIGNED_IN_KEY) === '1',
};

const OperatorContext = createContext<Me | undefined>(undefined);

export function OperatorProvider({ me, children }: { me: Me; children: ReactNode }) {
  return <OperatorContext.Provider value={me}>{children}</OperatorContext.Provider>;
}

/** The signed-in operator (inside the signed-in layout). */
export function useOperator(): Me {
  const me = useContext(OperatorContext);
  if (!me) throw new Error('useOperator outside the signed-in layout');
  return me;
}

/** Whether the signed-in operator's roles admit a call. */
export function useCan(): (call: OperatorCallName) => boolean {
  const me = useOperator();
  return (call) => allows(me.Operator.Roles, call);
}

export function useForgetSession(): () => void {
  const client = useQueryClient();
  return () => {
    signedInTab.clear();
    client.clear();
  };
}

/** What sign-in is told by the screen that sent the operator there. */
export interface SignInState {
  /** Why the session ended, as the service said it. */
  ended?: string;
  /** A notice (the invitation confirmed). */
  notice?: string;
  email?: string;
  from?: Location;
}
