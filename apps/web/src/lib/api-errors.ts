import { type FaultBody, type FaultName, faultMessage, LOCALLY_HANDLED_FAULTS } from '@soundid/contracts';
import { createStore, useStore } from './create-store';

/** A failed call: the service's Fault, or one made up for a network or protocol failure. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly fault: FaultBody,
    readonly status: number,
  ) {
    super(faultMessage(fault.ExceptionName, fault.ExceptionUserText));
  }

  get faultName(): string {
    return this.fault.ExceptionName;
  }

  /** The value of one of the fault's ExceptionVariables, e.g. OtherUserEmail. */
  variable(key: string): string | undefined {
    return this.fault.ExceptionVariables.find((v) => v.Key === key)?.Value;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

export function isFault(error: unknown, ...names: FaultName[]): error is ApiError {
  return isApiError(error) && (names as string[]).includes(error.faultName);
}

export function isLocallyHandledFault(name: string): boolean {
  return (LOCALLY_HANDLED_FAULTS as readonly string[]).includes(name);
}

export interface BannerError {
  id: number;
  fault: FaultBody;
  /** The call that failed: its next success takes the error down. */
  path?: string;
}

/** The danger banner of the generic handler (docs/requirements.md §8). */
export const apiErrorsStore = createStore<readonly BannerError[]>([]);
let nextId = 1;

export function useApiErrors(): readonly BannerError[] {
  return useStore(apiErrorsStore);
}

export function showApiError(fault: FaultBody, path?: string): void {
  apiErrorsStore.set((list) => {
    const others = list.filter((e) => e.fault.ExceptionName !== fault.ExceptionName);
    return [...others, { id: nextId++, fault, ...(path ? { path } : {}) }];
  });
}

/**
 * A call that now succeeds takes down the errors it raised before (a wrong upgrade code, then
 * the right one): the banner never contradicts the success notice beside it.
 */
export function clearApiErrorsOf(path: string): void {
  apiErrorsStore.set((list) => (list.some((e) => e.path === path) ? list.filter((e) => e.path !== path) : list));
}

export function dismissApiError(id: number): void {
  apiErrorsStore.set((list) => list.filter((e) => e.id !== id));
}

export function clearApiErrors(): void {
  apiErrorsStore.set((list) => (list.length === 0 ? list : []));
}
