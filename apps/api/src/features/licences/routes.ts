import {
  appVersionSchema,
  callSchemas,
  deviceOsSchema,
  licenceCallPaths,
  licenceMessages,
  type OfflineActivateResult,
  type OfflineDeactivateResult,
} from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import type { Clock, Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { AuditTrail } from '../operators/audit-trail';
import type { OperatorGuard } from '../operators/operator-guard';
import { actionRoutes, type StepUpGate } from './actions';
import { licenceAdminRoutes } from './admin-routes';
import { appLicenceRoutes } from './app-routes';
import type { LicenceList } from './licence-list';
import type { LostMachines } from './lost-machines';
import { checkDeactivationRequest, type OfflineLicenseSigner, parseDeactivationRequest, parseSwinfo } from './offline';
import type { LicenceService } from './service';
import type { LicenceTransfers } from './transfers';

export interface LicenceRoutesOptions {
  db: Database;
  clock: Clock;
  random: Random;
  licences: LicenceService;
  licenceList: LicenceList;
  /** Whether the portal offers offline activation (OFFLINE_ACTIVATION). */
  offlineActivation: boolean;
  /** The offline licence signer, loaded on first use; undefined when it has no key. */
  offlineSigner(): OfflineLicenseSigner | undefined;
  guard: OperatorGuard;
  audit: AuditTrail;
  lostMachines: LostMachines;
  /** Passing a licence on (ADR 0054). */
  transfers: LicenceTransfers;
  stepUp: StepUpGate;
}

/** The licences area: the portal's calls, the action URLs, the desktop-app calls and the operator API. */
export const licenceRoutes: FastifyPluginAsyncZod<LicenceRoutesOptions> = async (app, options) => {
  const { db, clock, random, licences, licenceList: list, offlineActivation, guard, audit } = options;
  const { lostMachines, stepUp, transfers } = options;
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  const offlineSigner = (): OfflineLicenseSigner => {
    const signer = options.offlineSigner();
    if (!signer) throw new Fault('OfflineActivationUnavailable');
    return signer;
  };
  /** The spec shows the offline panel in development only; production offers it only when configured. */
  const requireOfflineActivation = () => {
    if (!offlineActivation) throw new Fault('OfflineActivationDisabled');
  };
  /** A download name from the product and the machine, as the apps look for it. */
  const offlineFileName = (productName: string, machineId: string, extension: string) =>
    `${productName}-${machineId.replace(/[^A-Za-z0-9-]/g, '').slice(0, 24)}${extension}`;

  app.post(
    licenceCallPaths.GetAccountLicensesByProductLine,
    { schema: callSchemas.GetAccountLicensesByProductLine },
    async (request) => {
      const { row } = await app.requireSessionWith(request, list.readWithSession);
      return ok(list.fromSessionRow(row));
    },
  );

  app.post(licenceCallPaths.RegisterKey, { schema: callSchemas.RegisterKey }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await licences.registerKey(auth.userId, request.body.key));
  });

  app.post(licenceCallPaths.UpgradeKey, { schema: callSchemas.UpgradeKey }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await licences.upgradeKey(auth.userId, request.body.key, request.body.upgradeCode));
  });

  app.post(licenceCallPaths.KeyUpgradePaths, { schema: callSchemas.KeyUpgradePaths }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await licences.keyUpgradePaths(auth.userId, request.body.key));
  });

  app.post(licenceCallPaths.ClaimAdam60Day, { schema: callSchemas.ClaimAdam60Day }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await licences.claimAdam60Day(auth.userId, request.body.serial));
  });

  /** The devices panel's allowance line (ADR 0030), read when the panel opens. */
  app.post(
    licenceCallPaths.GetDeactivationAllowance,
    { schema: callSchemas.GetDeactivationAllowance },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await licences.deactivationAllowance(auth.userId, request.body.productName));
    },
  );

  /** A lost or stolen machine: its seat freed and the machine refused (ADR 0050); a step-up first. */
  app.post(licenceCallPaths.ReportDeviceLost, { schema: callSchemas.ReportDeviceLost }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    return ok(await lostMachines.report(auth.userId, request.body));
  });

  /** Passing a licence on (docs/decisions/0054-licence-transfer.md): the owner's offer needs a step-up. */
  app.post(licenceCallPaths.StartLicenceTransfer, { schema: callSchemas.StartLicenceTransfer }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    return ok(await transfers.start(auth.user, request.body.key, request.body.email));
  });

  app.post(licenceCallPaths.CancelLicenceTransfer, { schema: callSchemas.CancelLicenceTransfer }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await transfers.cancel(auth.userId, request.body.transferId));
  });

  app.post(licenceCallPaths.GetLicenceTransfer, { schema: callSchemas.GetLicenceTransfer }, async (request) => {
    await app.requireSession(request);
    return ok(await transfers.describe(request.body.token));
  });

  app.post(licenceCallPaths.AcceptLicenceTransfer, { schema: callSchemas.AcceptLicenceTransfer }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await transfers.accept(auth.user, request.body.token));
  });

  app.post(
    licenceCallPaths.GetIncomingLicenceTransfers,
    { schema: callSchemas.GetIncomingLicenceTransfers },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok({ Offers: await transfers.incoming(auth.user) });
    },
  );

  app.post(
    licenceCallPaths.AcceptIncomingLicenceTransfer,
    { schema: callSchemas.AcceptIncomingLicenceTransfer },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await transfers.acceptIncoming(auth.user, request.body.transferId));
    },
  );

  /** The offline activation panel: an .swinfo request in, a signed licence file out. */
  app.post(licenceCallPaths.OfflineActivate, { schema: callSchemas.OfflineActivate }, async (request) => {
    const auth = await app.requireSession(request);
    requireOfflineActivation();
    const swinfo = parseSwinfo(request.body.swinfo);
    const sign = offlineSigner();
    const activation = await licences.activateDevice(
      auth.userId,
      {
        productName: swinfo.productName,
        machineId: swinfo.machineId,
        deviceName: swinfo.deviceName,
        // Kept only in the form the apps' calls take (contracts: appVersionSchema, deviceOsSchema).
        appVersion: appVersionSchema.safeParse(swinfo.appVersion).data,
        os: deviceOsSchema.safeParse(swinfo.os).data,
      },
      'offline',
    );
    const { device, seats, product } = activation;
    const Content = sign.sign({
      format: 'soundid-license',
      version: 1,
      licenseId: device.id,
      productName: product.productName,
      machineId: device.machineId,
      deviceName: device.name,
      licenseKind: seats.kind === 'Trial' ? 'Trial' : 'Perpetual',
      issuedAt: clock.now().toISOString(),
      expiresAt: seats.kind === 'Trial' && seats.trialEndsAt ? seats.trialEndsAt.toISOString() : null,
      nonce: swinfo.nonce,
      removalSecret: sign.removalSecret(device.id),
    });
    return ok<OfflineActivateResult>({
      FileName: offlineFileName(product.productName, device.machineId, '.swlicense'),
      Content,
      DeviceId: activation.DeviceId,
      InstancesUsed: activation.InstancesUsed,
      InstancesMax: activation.InstancesMax,
    });
  });

  /**
   * The offline panel's second upload (docs/decisions/0053-offline-deactivation.md): the app's
   * .swdeactivate request in, the seat freed outside the allowance, a signed receipt out.
   */
  app.post(licenceCallPaths.OfflineDeactivate, { schema: callSchemas.OfflineDeactivate }, async (request) => {
    const auth = await app.requireSession(request);
    requireOfflineActivation();
    const deactivation = parseDeactivationRequest(request.body.file);
    const sign = offlineSigner();
    const ended = await licences.deactivateOffline(auth.userId, deactivation.licenseId, (device) =>
      checkDeactivationRequest(deactivation, device, sign),
    );
    const { device, product } = ended;
    return ok<OfflineDeactivateResult>({
      FileName: offlineFileName(product.productName, device.machineId, '.swreceipt'),
      Content: sign.signReceipt({
        format: 'soundid-deactivation-receipt',
        version: 1,
        licenseId: device.id,
        productName: product.productName,
        machineId: device.machineId,
        nonce: deactivation.nonce,
        removedAt: deactivation.removedAt,
        proof: deactivation.proof,
        deactivatedAt: ended.deactivatedAt.toISOString(),
      }),
      DeviceId: device.id,
      Message: licenceMessages.deviceDeactivatedOffline(device.name),
      InstancesUsed: ended.InstancesUsed,
      InstancesMax: ended.InstancesMax,
    });
  });

  /** Public: apps pin or fetch it to verify licence files offline. */
  app.get(licenceCallPaths.OfflinePublicKey, { schema: callSchemas.GetOfflinePublicKey }, async () =>
    ok(offlineSigner().publicKey()),
  );

  await app.register(actionRoutes, { licences, stepUp });
  await app.register(appLicenceRoutes, { licences });
  await app.register(licenceAdminRoutes, { licences, lostMachines, db, random, guard, audit });
};
