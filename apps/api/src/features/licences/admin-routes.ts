import { callSchemas, serialSchema } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import type { Random } from '../../lib/clock';
import { requireOperator } from '../admin/operator-auth';
import { PRODUCTS } from './catalogue';
import { UPGRADE_CODE_SHAPES } from './codes';
import { addSerials, issueKeys, issueUpgradeCodes } from './issuance';
import type { LicenceService } from './service';

const productCode = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/);

/** Operator API of the licences area (`npm run admin -- products|issue-keys|issue-upgrade-codes|add-serials`). */
export const licenceAdminRoutes: FastifyPluginAsyncZod<{
  licences: LicenceService;
  db: Database;
  random: Random;
  adminToken: string;
}> = async (app, { licences, db, random, adminToken }) => {
  app.addHook('onRequest', requireOperator(adminToken));

  app.get('/api/admin/products', { schema: callSchemas.AdminProducts }, async () => ({
    Success: true as const,
    Result: PRODUCTS.map((p) => ({
      Code: p.code,
      ProductName: p.productName,
      DisplayName: p.displayName,
      Line: p.line,
      Kind: p.kind,
      InstancesMax: p.instancesMax,
      TrialDays: p.trialDays ?? null,
    })),
  }));

  app.post(
    '/api/admin/issue-keys',
    {
      schema: {
        body: z.strictObject({ product: productCode, count: z.number().int().min(1).max(1000) }),
        ...callSchemas.AdminIssueKeys,
      },
    },
    async (request) => ({
      Success: true as const,
      Result: { Keys: await issueKeys(licences, db, request.body.product, request.body.count) },
    }),
  );

  app.post(
    '/api/admin/issue-upgrade-codes',
    {
      schema: {
        body: z.strictObject({
          product: productCode,
          from: z.array(productCode).min(1).max(20),
          count: z.number().int().min(1).max(1000),
          shape: z.enum(UPGRADE_CODE_SHAPES).default('upg'),
        }),
        ...callSchemas.AdminIssueUpgradeCodes,
      },
    },
    async (request) => {
      const { product, from, count, shape } = request.body;
      return {
        Success: true as const,
        Result: { Codes: await issueUpgradeCodes(db, random, { target: product, from, count, shape }) },
      };
    },
  );

  app.post(
    '/api/admin/add-serials',
    {
      schema: {
        body: z.strictObject({ serials: z.array(serialSchema).min(1).max(10_000) }),
        ...callSchemas.AdminAddSerials,
      },
    },
    async (request) => ({ Success: true as const, Result: await addSerials(db, request.body.serials) }),
  );
};
