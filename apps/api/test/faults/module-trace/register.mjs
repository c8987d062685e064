// `node --import <this file>`: every module of the service the process loads is named on stderr
// (refused-start.test.ts reads which parts of the service a refused start-up loaded).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
