import type { CallBody } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/**
 * Reports a machine lost or stolen (docs/decisions/0050-lost-or-stolen.md): its seat is freed and it
 * is refused from then on. A step-up is asked for in place when needed; faults shown by the panel.
 */
export async function reportDeviceLost(body: CallBody<'ReportDeviceLost'>): Promise<string> {
  const { Result } = await call('ReportDeviceLost', { ...body, silent: true });
  return Result.Message;
}

export function useReportDeviceLost() {
  return useMutation({ mutationFn: reportDeviceLost });
}
