import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { rememberNavigation } from '../lib/navigation-memory';
import type { GuardDecision } from './guards';

/** Carries out a guard's decision, using up the memory it relied on. */
export function GuardRedirect({ decision }: { decision: GuardDecision }) {
  const navigate = useNavigate();
  useEffect(() => {
    if (decision.consumes === 'redirectAfterLogin') rememberNavigation({ redirectAfterLogin: false });
    if (decision.consumes === 'savedRedirectPath') rememberNavigation({ savedRedirectPath: null });
    navigate(decision.to, { replace: true });
  }, [decision.to, decision.consumes, navigate]);
  return null;
}
