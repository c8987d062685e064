import type { Reporter, TestModule } from 'vitest/node';

/**
 * Names the test files a run started and never finished. When a test worker dies (Vitest then
 * says only "Worker exited unexpectedly"), the file it was running is otherwise missing from the
 * output without a word; this reporter's last lines name it and its project, so the crash can be
 * reproduced with that file alone (README.md, "A lost test worker").
 */
export default class UnfinishedFilesReporter implements Reporter {
  private readonly running = new Map<string, string>();

  private readonly write: (text: string) => void;

  /** Vitest passes the reporter's options from the config; tests pass `write` to read the report. */
  constructor(options: { write?: (text: string) => void } = {}) {
    this.write = options.write ?? ((text) => process.stderr.write(text));
  }

  onTestModuleStart(testModule: TestModule): void {
    this.running.set(testModule.moduleId, `${testModule.project.name}: ${testModule.relativeModuleId}`);
  }

  onTestModuleEnd(testModule: TestModule): void {
    this.running.delete(testModule.moduleId);
  }

  onTestRunEnd(): void {
    if (this.running.size === 0) return;
    const files = [...this.running.values()].sort();
    this.write(
      `\nThese test files started and never finished (a worker that dies takes its file with it):\n${files.map((file) => `  ${file}\n`).join('')}`,
    );
    this.running.clear();
  }
}
