import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './services';

/** A measured figure beside its same-run baseline, the ratio, and the bar it is held to. */
export interface Figure {
  name: string;
  database: string;
  value: number;
  unit: 'req/s' | 'ms';
  baseline: number;
  baselineName: string;
  /** `ratio`: value / baseline is held to the limit; `value`: the value itself is. */
  bar: { op: '>=' | '<='; limit: number; on: 'ratio' | 'value' };
}

export function ratioOf(f: Figure): number {
  return f.value / f.baseline;
}

export function meets(f: Figure): boolean {
  const measured = f.bar.on === 'ratio' ? ratioOf(f) : f.value;
  return f.bar.op === '>=' ? measured >= f.bar.limit : measured <= f.bar.limit;
}

const number = (n: number, unit: Figure['unit']) => (unit === 'ms' ? `${n.toFixed(1)} ms` : `${n.toFixed(0)}/s`);

export function figureTable(figures: Figure[]): string {
  const lines = figures.map((f) => {
    const bar = `${f.bar.op} ${f.bar.on === 'value' ? number(f.bar.limit, f.unit) : `${f.bar.limit}x`}`;
    return `| ${f.name} | ${f.database} | ${number(f.value, f.unit)} | ${f.baselineName}: ${number(f.baseline, f.unit)} | ${ratioOf(f).toFixed(2)} | ${bar} | ${meets(f) ? 'meets' : '**misses**'} |`;
  });
  return [
    '| Figure | Database | Value | Baseline (same run) | Ratio | Bar | |',
    '|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
}

export function machine(): string {
  return `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end`;
}

/**
 * Replaces what stands between `<!-- NAME:start -->` and `<!-- NAME:end -->` in
 * docs/benchmarks.md; the hand-written reading around the markers stays.
 */
export function writeBlock(name: string, content: string): void {
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const current = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  const block = `${start}\n${content}\n${end}`;
  const pattern = new RegExp(`${start}[\\s\\S]*${end}`);
  writeFileSync(file, pattern.test(current) ? current.replace(pattern, () => block) : `${current}\n${block}\n`);
}
