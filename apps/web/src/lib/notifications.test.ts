import { describe, expect, it, vi } from 'vitest';
import { clearNotificationErrors, notificationsStore, notify } from './notifications';

describe('notifications', () => {
  it('closes success notices after 5000 ms and keeps the others until closed', () => {
    vi.useFakeTimers();
    notify('success', 'saved');
    notify('danger', 'failed');
    notify('danger', 'brief', { autoClose: true, autoCloseTime: 1000 });
    vi.advanceTimersByTime(1000);
    expect(notificationsStore.get().map((n) => n.content)).toEqual(['saved', 'failed']);
    vi.advanceTimersByTime(4000);
    expect(notificationsStore.get().map((n) => n.content)).toEqual(['failed']);
  });

  it('drops only the error notices when asked to clear errors', () => {
    notify('success', 'saved');
    notify('danger', 'failed');
    clearNotificationErrors();
    expect(notificationsStore.get().map((n) => n.content)).toEqual(['saved']);
  });
});
