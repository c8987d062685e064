import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Fault } from '../../lib/fault';
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

  /** The apps' hot path: the session check and the licence check in one statement (ADR 0049). */
  app.post('/api/apps/CheckLicense', { schema: callSchemas.CheckLicense }, async (request) => {
    const read = licences.checkLicenseRead(request.body);
    if (!read) {
      // Not a product the apps activate: the session is checked first, then ProductNotFound.
      await app.requireSession(request);
      throw new Fault('ProductNotFound');
    }
    const { userId, row } = await app.requireSessionWith(request, read);
    return { Success: true as const, Result: await licences.checkLicenseFrom(userId, request.body, row) };
  });
};
