import type { TestProject } from 'vitest/node';
import { buildWeb, type DemoAccount, demoAccount, startApi } from './api-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    demoAccount: DemoAccount;
  }
}

export default async function setup(project: TestProject) {
  buildWeb();
  const api = await startApi();
  project.provide('baseUrl', api.baseUrl);
  try {
    project.provide('demoAccount', await demoAccount(api));
  } catch (error) {
    await api.stop();
    throw error;
  }
  return () => api.stop();
}
