import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LicenceService } from './service';

/** The desktop-app activation calls (API contract, Desktop apps), signed in with AuthToken. */
export const appLicenceRoutes: FastifyPluginAsyncZod<{ licences: LicenceService }> = async (app, { licences }) => {
  app.post('/api/apps/ActivateDevice', { schema: callSchemas.ActivateDevice }, async (request) => {
    const auth = await app.requireSession(request);
    const { DeviceId, InstancesUsed, InstancesMax } = await licences.activateDevice(auth.userId, request.body);
    return { Success: true as const, Result: { DeviceId, InstancesUsed, InstancesMax } };
  });

  app.post('/api/apps/DeactivateDevice', { schema: callSchemas.DeactivateDevice }, async (request) => {
    const auth = await app.requireSession(request);
    const { productName, machineId } = request.body;
    return { Success: true as const, Result: await licences.deactivateMachine(auth.userId, productName, machineId) };
  });

  app.post('/api/apps/CheckLicense', { schema: callSchemas.CheckLicense }, async (request) => {
    const auth = await app.requireSession(request);
    return { Success: true as const, Result: await licences.checkLicense(auth.userId, request.body) };
  });
};
