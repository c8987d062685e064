import type { Clock } from '../src/lib/clock';

/** A clock that stands still until a test moves it. */
export class FakeClock implements Clock {
  private current: number;
  constructor(start = '2026-01-15T10:00:00.000Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  advanceMinutes(minutes: number): void {
    this.current += minutes * 60_000;
  }
  advanceHours(hours: number): void {
    this.advanceMinutes(hours * 60);
  }
}
