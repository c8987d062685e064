import { beforeEach } from 'vitest';

/**
 * Before each test of the front ends (vitest.config.ts, frontEndProjects): the page as a new tab
 * has it. The test files of a worker share one jsdom, so what a screen left on the page (a
 * title, a script in the head, an attribute on <html>, a link appended to the body) would
 * otherwise meet the next file's tests. Each app's own setup puts the URL where its tests start.
 */
beforeEach(() => {
  const html = document.documentElement;
  for (const name of html.getAttributeNames()) html.removeAttribute(name);
  for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);
  document.head.replaceChildren();
  document.body.replaceChildren();
  document.title = '';
});
