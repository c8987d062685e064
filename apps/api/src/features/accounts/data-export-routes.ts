import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { DataExportService } from './data-export';

const path = (call: string) => `/api/accounts/${call}`;

/** The customer's data export and the pre-deletion summary (ADR 0038), for the signed-in customer. */
export const dataExportRoutes: FastifyPluginAsyncZod<{ dataExport: DataExportService }> = async (
  app,
  { dataExport },
) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(path('ExportMyData'), { schema: callSchemas.ExportMyData }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await dataExport.export(auth.userId));
  });

  app.post(path('GetDeletionSummary'), { schema: callSchemas.GetDeletionSummary }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await dataExport.deletionSummary(auth.userId));
  });
};
