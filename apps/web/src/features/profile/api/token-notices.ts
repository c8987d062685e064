import type { CallBody, NotificationPreferences } from '@soundid/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

const key = ['notification-preferences'] as const;

/**
 * Which voice AI token mails the customer gets (ADR 0057). Silent: the panel says itself that it
 * could not load them, and the rest of the profile stands.
 */
export function useNotificationPreferences() {
  return useQuery({
    queryKey: key,
    queryFn: async () => (await call('GetNotificationPreferences', { silent: true })).Result,
    retry: false,
  });
}

export function useSetNotificationPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: CallBody<'SetNotificationPreferences'>) =>
      (await call('SetNotificationPreferences', body)).Result,
    onSuccess: (saved: NotificationPreferences) => queryClient.setQueryData(key, saved),
  });
}
