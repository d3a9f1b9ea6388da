import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  benchPort,
  loopbackOnly,
  optionValue,
  percentile,
  printTable,
  seedSourceStamp,
  treeCpuSeconds,
} from './bench-lib';

describe('bench helpers (scripts/bench-lib.ts)', () => {
  it('stamps a kept seed with its sources: the same sources give the same stamp, and the newest migration is among them', () => {
    const stamp = seedSourceStamp();
    expect(stamp).toMatch(/^[0-9a-f]{64}$/);
    expect(seedSourceStamp()).toBe(stamp);
    const journal = JSON.parse(readFileSync('db/migrations/meta/_journal.json', 'utf8')) as {
      entries: { tag: string }[];
    };
    expect(readFileSync(`db/migrations/${journal.entries.at(-1)?.tag}.sql`, 'utf8').length).toBeGreaterThan(0);
  });

  it('reads an option value and refuses an option left without one', () => {
    expect(optionValue(['--rate', '5', '--out', 'x.json'], '--out')).toBe('x.json');
    expect(optionValue(['--rate', '5'], '--out')).toBeUndefined();
    expect(() => optionValue(['--rate'], '--rate')).toThrow('--rate needs a value');
    expect(() => optionValue(['--rate', '--duration', '3'], '--rate')).toThrow('--rate needs a value');
  });

  it('takes BENCH_PORT from 1024 to 65535 only, 4398 when unset', () => {
    expect(benchPort({})).toBe(4398);
    expect(benchPort({ BENCH_PORT: '4520' })).toBe(4520);
    for (const bad of ['80', '70000', 'x', '4520.5'])
      expect(() => benchPort({ BENCH_PORT: bad })).toThrow('BENCH_PORT must be a port number from 1024 to 65535');
  });

  it('targets 127.0.0.1 only', () => {
    expect(loopbackOnly('http://127.0.0.1:4520/api/health')).toBe('http://127.0.0.1:4520/api/health');
    expect(() => loopbackOnly('http://example.org/')).toThrow('only targets 127.0.0.1');
    expect(() => loopbackOnly('http://localhost:4520/')).toThrow('only targets 127.0.0.1');
  });

  it('gives the nearest-rank percentile of sorted figures', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile([], 0.99)).toBe(0);
  });

  it('prints a table with its first column left-aligned and a rule under the header', () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      printTable([
        ['route', 'rows'],
        ['home', 29],
      ]);
    } finally {
      console.log = log;
    }
    expect(lines).toEqual(['route  rows', '-----  ----', 'home     29']);
  });

  it("counts a process tree's CPU seconds, which grow with the work it does", () => {
    expect(treeCpuSeconds(undefined)).toBeNull();
    const before = treeCpuSeconds(process.pid);
    expect(before).not.toBeNull();
    // Spin until the count moves (ticks of 10 ms), however busy the machine; it never moves when broken.
    const until = performance.now() + 5000;
    let used = 0;
    while (used < 0.05 && performance.now() < until) used = (treeCpuSeconds(process.pid) ?? 0) - (before ?? 0);
    expect(used).toBeGreaterThanOrEqual(0.05);
  });
});
