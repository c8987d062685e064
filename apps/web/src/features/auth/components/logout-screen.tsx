import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { WaitingOverlay } from '../../../components/waiting-overlay';
import { setAnonymous } from '../../../lib/session';
import { useRunOnce } from '../../../lib/use-run-once';
import { logout } from '../api/logout';

export function LogoutScreen() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  useRunOnce(() => {
    logout().then(
      () => {
        setAnonymous();
        queryClient.clear();
        navigate('/login', { replace: true });
      },
      () => navigate('/', { replace: true }),
    );
  });
  return <WaitingOverlay />;
}
