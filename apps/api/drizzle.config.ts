import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every *schema.ts in src/db: one file per area (accounts, licences, voice AI).
  schema: './src/db/*schema.ts',
  out: './src/db/migrations',
});
