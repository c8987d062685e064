// `node --import <this file>`: every module of the service the process loads is named on stderr
// (refused-start.test.ts reads which parts of the service a refused start-up loaded). Where Node
// has in-thread hooks (module.registerHooks, Node 22.15 and later), they are used: the loader
// thread's hooks of `register` see nothing on Node 24 once tsx resolves in-thread. The test kit
// imports this file before tsx, so tsx's hooks run first and call these as their `next`: each
// module is named as it resolves, whichever hooks resolve it.
import * as nodeModule from 'node:module';

const SERVICE = '/apps/api/src/';

if (typeof nodeModule.registerHooks === 'function') {
  nodeModule.registerHooks({
    resolve(specifier, context, next) {
      const result = next(specifier, context);
      if (result.url.includes(SERVICE)) process.stderr.write(`module loaded: ${result.url}\n`);
      return result;
    },
  });
} else {
  nodeModule.register('./hooks.mjs', import.meta.url);
}
