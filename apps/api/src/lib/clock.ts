import { randomBytes } from 'node:crypto';

/** Injected time, so that expiry and lockout rules are tested without waiting. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** Injected randomness, so that tests can make tokens predictable where they need to. */
export interface Random {
  bytes(size: number): Buffer;
}

export const systemRandom: Random = { bytes: (size) => randomBytes(size) };

export const addMinutes = (date: Date, minutes: number) => new Date(date.getTime() + minutes * 60_000);
export const addHours = (date: Date, hours: number) => addMinutes(date, hours * 60);
export const addDays = (date: Date, days: number) => addHours(date, days * 24);
