import { describe, expect, it } from 'vitest';
import type { TestModule } from 'vitest/node';
import UnfinishedFilesReporter from './reporters/unfinished-files.js';

const testModule = (project: string, file: string) =>
  ({ moduleId: `/repo/${file}`, relativeModuleId: file, project: { name: project } }) as unknown as TestModule;

describe('the unfinished-files reporter (README.md, "A lost test worker")', () => {
  it('names the files that started and never finished, with their project', () => {
    const written: string[] = [];
    const reporter = new UnfinishedFilesReporter({ write: (text) => written.push(text) });
    const done = testModule('api-pglite', 'src/a.test.ts');
    reporter.onTestModuleStart(done);
    reporter.onTestModuleStart(testModule('api-postgres', 'src/b.test.ts'));
    reporter.onTestModuleStart(testModule('web', 'src/c.test.tsx'));
    reporter.onTestModuleEnd(done);
    reporter.onTestRunEnd();
    expect(written.join('')).toBe(
      '\nThese test files started and never finished (a worker that dies takes its file with it):\n' +
        '  api-postgres: src/b.test.ts\n  web: src/c.test.tsx\n',
    );
  });

  it('says nothing when every file finished', () => {
    const written: string[] = [];
    const reporter = new UnfinishedFilesReporter({ write: (text) => written.push(text) });
    const file = testModule('contracts', 'src/x.test.ts');
    reporter.onTestModuleStart(file);
    reporter.onTestModuleEnd(file);
    reporter.onTestRunEnd();
    expect(written).toEqual([]);
  });
});
