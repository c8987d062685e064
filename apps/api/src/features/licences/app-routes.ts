import { appLicenceCalls } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LicenceService } from './service';

/** The desktop-app activation calls (API contract, Desktop apps), signed in with AuthToken. */
export const appLicenceRoutes: FastifyPluginAsyncZod<{ licences: LicenceService }> = async (app, { licences }) => {
  app.post('/api/apps/ActivateDevice', { schema: { body: appLicenceCalls.ActivateDevice } }, async (request) => {
    const auth = await app.requireSession(request);
    const { productName, machineId, deviceName } = request.body;
    const { DeviceId, InstancesUsed, InstancesMax } = await licences.activateDevice(
      auth.userId,
      productName,
      machineId,
      deviceName,
    );
    return { Success: true, Result: { DeviceId, InstancesUsed, InstancesMax } };
  });

  app.post('/api/apps/DeactivateDevice', { schema: { body: appLicenceCalls.DeactivateDevice } }, async (request) => {
    const auth = await app.requireSession(request);
    const { productName, machineId } = request.body;
    return { Success: true, Result: await licences.deactivateMachine(auth.userId, productName, machineId) };
  });

  app.post('/api/apps/CheckLicense', { schema: { body: appLicenceCalls.CheckLicense } }, async (request) => {
    const auth = await app.requireSession(request);
    const { productName, machineId } = request.body;
    return { Success: true, Result: await licences.checkLicense(auth.userId, productName, machineId) };
  });
};
