import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import {
  BENCH_USAGE,
  benchDeadlineSeconds,
  benchMode,
  benchPort,
  checkOptions,
  loopbackOnly,
  parseBenchArgs,
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

describe('checking options (checkOptions)', () => {
  const options = { values: ['--rate', '--duration', '--out'], flags: ['--no-rows'] };

  it('takes the known options, each value after its option, in any order', () => {
    expect(() => checkOptions([], options)).not.toThrow();
    expect(() => checkOptions(['--no-rows', '--rate', '-3', '--out', 'x.json'], options)).not.toThrow();
  });

  it.each([
    [['--durration', '5'], 'unknown option "--durration" (did you mean --duration?)'],
    [['--rate', '50', 'extra'], 'unexpected argument "extra" after 50'],
    [['extra'], 'unexpected argument "extra"'],
    [['--verbose'], 'unknown option "--verbose"'],
    [['-r', '5'], 'unknown option "-r"'],
    [['--rate=50'], 'write "--rate 50" (a space, not "="), got "--rate=50"'],
    [['--rate', '5', '--rate', '10'], '--rate is given twice'],
    [['--no-rows', '--no-rows'], '--no-rows is given twice'],
    [['--no-rows', 'yes'], 'unexpected argument "yes" after --no-rows'],
    [['--rate'], '--rate needs a value'],
    [['--rate', '--out', 'x'], '--rate needs a value'],
  ])('refuses %j, naming it', (argv, message) => {
    expect(() => checkOptions(argv, options)).toThrow(message);
  });

  it('suggests nothing for a word far from every option', () => {
    expect(() => checkOptions(['--lighthose'], options)).toThrow(/^unknown option "--lighthose"$/);
  });
});

describe('npm run bench options (parseBenchArgs, benchMode, BENCH_DEADLINE_S)', () => {
  it('keeps the defaults and reads every option', () => {
    expect(parseBenchArgs([])).toEqual({
      duration: 5,
      scale: 100,
      lighthouse: true,
      out: 'bench-results.json',
      dist: 'dist',
      label: '',
      compare: null,
      rows: true,
      rowsOnly: false,
      keepData: false,
    });
    expect(
      parseBenchArgs([
        '--duration',
        '2',
        '--scale',
        '1',
        '--no-lighthouse',
        '--no-rows',
        '--out',
        'x.json',
        '--dist',
        'old',
        '--compare',
        'older',
        '--label',
        'a run',
      ]),
    ).toEqual({
      duration: 2,
      scale: 1,
      lighthouse: false,
      out: 'x.json',
      dist: 'old',
      label: 'a run',
      compare: 'older',
      rows: false,
      rowsOnly: false,
      keepData: false,
    });
    expect(parseBenchArgs(['--rows-only', '--keep-data'])).toMatchObject({ rowsOnly: true, keepData: true });
  });

  it.each([
    [['--durration', '5'], 'unknown option "--durration" (did you mean --duration?)'],
    [['--duration', '5', 'extra'], 'unexpected argument "extra"'],
    [['--no-lighthouse', '--no-lighthouse'], 'given twice'],
    [['--duration', '0'], '--duration must be a whole number of seconds from 1 to 60, got "0"'],
    [['--duration', '61'], 'from 1 to 60'],
    [['--duration', '2.5'], 'from 1 to 60'],
    [['--duration', '0x5'], 'from 1 to 60'],
    [['--duration', ''], 'from 1 to 60'],
    [['--scale', '0'], '--scale must be a whole number from 1 to'],
    [['--scale', 'many'], '--scale must be a whole number'],
    [['--out'], '--out needs a value'],
    [['--rows-only', '--no-rows'], '--rows-only and --no-rows contradict'],
    [['--keep-data'], '--keep-data goes with --rows-only only'],
    [['--rows-only', '--compare', 'old'], '--compare is not measured with --rows-only'],
  ])('refuses %j with a message that says what to fix', (argv, message) => {
    expect(() => parseBenchArgs(argv)).toThrow(message);
  });

  it('names every option in its usage', () => {
    for (const option of ['--duration', '--scale', '--no-lighthouse', '--no-rows', '--rows-only', '--keep-data'])
      expect(BENCH_USAGE).toContain(option);
    for (const option of ['--out', '--dist', '--compare', '--label', '--storm', '--lighthouse', 'BENCH_DEADLINE_S'])
      expect(BENCH_USAGE).toContain(option);
  });

  it('tells the speed run from --storm and --lighthouse, and refuses both at once', () => {
    expect(benchMode([])).toBe('speed');
    expect(benchMode(['--duration', '5'])).toBe('speed');
    expect(benchMode(['--rate', '5', '--storm'])).toBe('storm');
    expect(benchMode(['--lighthouse', '--runs', '2'])).toBe('lighthouse');
    expect(() => benchMode(['--storm', '--lighthouse'])).toThrow('--storm and --lighthouse are separate runs');
  });

  it('takes BENCH_DEADLINE_S as whole seconds from 60 to 86400, 1500 when unset', () => {
    expect(benchDeadlineSeconds({})).toBe(1500);
    expect(benchDeadlineSeconds({ BENCH_DEADLINE_S: '60' })).toBe(60);
    expect(benchDeadlineSeconds({ BENCH_DEADLINE_S: '3600' })).toBe(3600);
    expect(benchDeadlineSeconds({ BENCH_DEADLINE_S: '86400' })).toBe(86_400);
    // Each of these made a timer that fired within milliseconds ("over the time limit" at the first await).
    for (const bad of ['abc', '', ' ', '0', '-5', '59', '86401', '3000000', '1500.5', '1e3', ' 1500', 'Infinity'])
      expect(() => benchDeadlineSeconds({ BENCH_DEADLINE_S: bad }), bad).toThrow(
        `BENCH_DEADLINE_S must be a whole number of seconds from 60 to 86400 (default 1500), got ${JSON.stringify(bad)}`,
      );
  });
});
