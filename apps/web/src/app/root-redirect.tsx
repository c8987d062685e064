import { Navigate } from 'react-router';
import { usePublicConfig } from '../config/public-config-context';

/** The root goes to the product of this build target (docs/requirements.md §2). */
export function RootRedirect() {
  const { AppTarget } = usePublicConfig();
  return <Navigate to={AppTarget === 'reference' ? '/soundid-reference' : '/profile'} replace />;
}
