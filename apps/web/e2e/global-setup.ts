import type { TestProject } from 'vitest/node';
import { buildWeb, startApi } from './api-server';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

export default async function setup(project: TestProject) {
  buildWeb();
  const api = await startApi();
  project.provide('baseUrl', api.baseUrl);
  return () => api.stop();
}
