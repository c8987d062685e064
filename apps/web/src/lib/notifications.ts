import { NOTIFICATION_AUTO_CLOSE_MS, type NotificationType } from '@soundid/contracts';
import { createStore, useStore } from './create-store';

export interface Notification {
  id: number;
  type: NotificationType;
  content: string;
  autoClose: boolean;
  autoCloseTime: number;
}

export interface NotifyOptions {
  autoClose?: boolean;
  autoCloseTime?: number;
}

export const notificationsStore = createStore<readonly Notification[]>([]);
const timers = new Map<number, ReturnType<typeof setTimeout>>();
let nextId = 1;

export function useNotifications(): readonly Notification[] {
  return useStore(notificationsStore);
}

/** Success notices close themselves after 5000 ms; others stay until closed unless autoClose is set. */
export function notify(type: NotificationType, content: string, options: NotifyOptions = {}): number {
  const id = nextId++;
  const notification: Notification = {
    id,
    type,
    content,
    autoClose: options.autoClose ?? type === 'success',
    autoCloseTime: options.autoCloseTime ?? NOTIFICATION_AUTO_CLOSE_MS,
  };
  notificationsStore.set((list) => [...list, notification]);
  if (notification.autoClose) {
    timers.set(
      id,
      setTimeout(() => dismissNotification(id), notification.autoCloseTime),
    );
  }
  return id;
}

export function dismissNotification(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
  notificationsStore.set((list) => list.filter((n) => n.id !== id));
}

/** On navigation the error notices go; the others close on their own or by hand. */
export function clearNotificationErrors(): void {
  notificationsStore.set((list) => {
    if (!list.some((n) => n.type === 'danger')) return list;
    for (const n of list) if (n.type === 'danger') dismissTimer(n.id);
    return list.filter((n) => n.type !== 'danger');
  });
}

function dismissTimer(id: number): void {
  clearTimeout(timers.get(id));
  timers.delete(id);
}

export function clearAllNotifications(): void {
  for (const id of timers.keys()) dismissTimer(id);
  notificationsStore.set([]);
}
