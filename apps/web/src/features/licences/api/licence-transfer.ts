import type { CallBody, IncomingLicenceTransfer, LicenceTransferOffer } from '@soundid/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/**
 * Passing a licence on (docs/decisions/0054-licence-transfer.md). Starting asks for a step-up in
 * place when needed (ADR 0040); faults are shown by the panel or the page (silent).
 */
export async function startLicenceTransfer(body: CallBody<'StartLicenceTransfer'>): Promise<string> {
  const { Result } = await call('StartLicenceTransfer', { ...body, silent: true });
  return Result.Message;
}

export async function cancelLicenceTransfer(transferId: string): Promise<string> {
  const { Result } = await call('CancelLicenceTransfer', { transferId, silent: true });
  return Result.Message;
}

export async function getLicenceTransfer(token: string): Promise<LicenceTransferOffer> {
  const { Result } = await call('GetLicenceTransfer', { token, silent: true });
  return Result;
}

export async function acceptLicenceTransfer(token: string): Promise<string> {
  const { Result } = await call('AcceptLicenceTransfer', { token, silent: true });
  return Result.Message;
}

export function useStartLicenceTransfer() {
  return useMutation({ mutationFn: startLicenceTransfer });
}

export function useCancelLicenceTransfer() {
  return useMutation({ mutationFn: cancelLicenceTransfer });
}

export function useLicenceTransfer(token: string) {
  return useQuery({
    queryKey: ['licences', 'transfer', token],
    queryFn: () => getLicenceTransfer(token),
    staleTime: 0,
    retry: false,
  });
}

export function useAcceptLicenceTransfer() {
  return useMutation({ mutationFn: acceptLicenceTransfer });
}

/** The open offers to the customer's verified address (ADR 0054, addendum): shown on Licenses & Devices. */
export async function getIncomingLicenceTransfers(): Promise<IncomingLicenceTransfer[]> {
  const { Result } = await call('GetIncomingLicenceTransfers', { silent: true });
  return Result.Offers;
}

export async function acceptIncomingLicenceTransfer(transferId: string): Promise<string> {
  const { Result } = await call('AcceptIncomingLicenceTransfer', { transferId, silent: true });
  return Result.Message;
}

export const INCOMING_TRANSFERS_KEY = ['licences', 'incoming-transfers'] as const;

export function useIncomingLicenceTransfers() {
  return useQuery({
    queryKey: INCOMING_TRANSFERS_KEY,
    queryFn: getIncomingLicenceTransfers,
    staleTime: 0,
    retry: false,
  });
}

export function useAcceptIncomingLicenceTransfer() {
  return useMutation({ mutationFn: acceptIncomingLicenceTransfer });
}
