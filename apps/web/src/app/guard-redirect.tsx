import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import type { GuardDecision } from './guards';

/**
 * Carries out a guard's decision. The memory it relied on is used up by NavigationEffects once
 * the customer has arrived: used up here, the guards would decide again on the old location
 * without it while the new route still loads, and send the customer to the root instead.
 */
export function GuardRedirect({ decision }: { decision: GuardDecision }) {
  const navigate = useNavigate();
  useEffect(() => {
    navigate(decision.to, { replace: true });
  }, [decision.to, navigate]);
  return null;
}
