import type { TestProject } from 'vitest/node';
import { operatorKitFor } from '../../api/test/kit';
import { buildConsole, buildWeb, type DemoAccount, demoAccount, E2E_ADMIN_TOKEN, startApi } from './api-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    demoAccount: DemoAccount;
    /** An operator with every role (ADR 0044), made through the bootstrap token as a newcomer does. */
    operatorToken: string;
  }
}

export default async function setup(project: TestProject) {
  buildWeb();
  buildConsole();
  const api = await startApi();
  project.provide('baseUrl', api.baseUrl);
  try {
    project.provide('demoAccount', await demoAccount(api));
    project.provide('operatorToken', await operatorKitFor(api.baseUrl, E2E_ADMIN_TOKEN).tokenFor());
  } catch (error) {
    await api.stop();
    throw error;
  }
  return () => api.stop();
}
