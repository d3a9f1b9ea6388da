import { describe, expect, it } from 'vitest';
import {
  coreUse,
  cpuPerRequest,
  MAX_STORM_TIME_LIMIT_S,
  parseStormArgs,
  STORM_USAGE,
  stormGiftCount,
  stormTimeLimitSeconds,
} from './bench-storm';

describe('npm run bench -- --storm options', () => {
  it('defaults to 20 webhooks a second for 60 s, with 30 s of quiet reads', () => {
    expect(parseStormArgs([])).toMatchObject({
      rate: 20,
      duration: 60,
      quiet: 30,
      capacity: 0,
      out: 'bench-storm.json',
      db: 'd1',
    });
    expect(parseStormArgs(['--db', 'turso'])).toMatchObject({ db: 'turso' });
    expect(parseStormArgs(['--rate', '2.5', '--duration', '600', '--capacity', '100'])).toMatchObject({
      rate: 2.5,
      duration: 600,
      capacity: 100,
    });
    expect(
      parseStormArgs([
        '--out',
        'x.json',
        '--dist',
        'old',
        '--quiet',
        '1',
        '--capacity',
        '0',
        '--rate',
        '0.5',
        '--duration',
        '2',
      ]),
    ).toEqual({ rate: 0.5, duration: 2, quiet: 1, capacity: 0, out: 'x.json', dist: 'old', db: 'd1' });
  });

  it('takes the largest storms the usage allows: 12,000 webhooks, and 5,000 capacity gifts', () => {
    expect(parseStormArgs(['--rate', '200', '--duration', '60'])).toMatchObject({ rate: 200, duration: 60 });
    expect(parseStormArgs(['--rate', '20', '--duration', '600', '--capacity', '5000', '--quiet', '600'])).toMatchObject(
      { rate: 20, duration: 600, capacity: 5000, quiet: 600 },
    );
  });

  it('keeps the time limit of every run it accepts under 3 hours, and says so in its usage', () => {
    const largest = parseStormArgs(['--rate', '20', '--duration', '600', '--capacity', '5000', '--quiet', '600']);
    expect(stormGiftCount(largest)).toBe(10_909);
    expect(stormTimeLimitSeconds(largest)).toBeLessThanOrEqual(MAX_STORM_TIME_LIMIT_S);
    const widest = parseStormArgs(['--rate', '200', '--duration', '60', '--capacity', '5000', '--quiet', '600']);
    expect(stormTimeLimitSeconds(widest)).toBeLessThanOrEqual(MAX_STORM_TIME_LIMIT_S);
    // The default: 1,091 gifts, 15 min + 60 s + 60 s + 545.5 s.
    expect(stormTimeLimitSeconds(parseStormArgs([]))).toBe(1565.5);
    expect(STORM_USAGE).toContain('at most 12,000 webhooks');
    expect(STORM_USAGE).toContain('at most 3 h');
  });

  it.each([
    [['--rate', '0'], '--rate must be more than 0 and at most 200'],
    [['--rate', '-3'], '--rate must be more than 0'],
    [['--rate', '201'], 'at most 200 webhooks a second'],
    [['--rate', 'fast'], '--rate must be a number'],
    [['--rate', ''], '--rate must be a number'],
    [['--rate'], '--rate needs a value'],
    [['--rate', '1e2'], '--rate must be a number'],
    [['--rate', 'Infinity'], '--rate must be a number'],
    [['--duration', '0'], '--duration must be a whole number of seconds from 1 to 600, got 0'],
    [['--duration', '0.005', '--rate', '200'], '--duration must be a whole number of seconds from 1 to 600, got 0.005'],
    [['--duration', '1.5'], '--duration must be a whole number of seconds'],
    [['--duration', '601'], 'from 1 to 600, got 601'],
    [['--duration', 'NaN'], '--duration must be a number'],
    [['--quiet', '0'], '--quiet must be a whole number of seconds from 1 to 600'],
    [['--quiet', '0.5'], '--quiet must be a whole number of seconds from 1 to 600'],
    [['--capacity', '2.5'], '--capacity must be a whole number of gifts from 0 to 5000'],
    [['--capacity', '5001'], '--capacity must be a whole number of gifts from 0 to 5000, got 5001'],
    [['--capacity', '-1'], '--capacity must be a whole number of gifts from 0 to 5000'],
    [
      ['--rate', '200', '--duration', '600', '--capacity', '5000'],
      '--rate × --duration must send at most 12,000 webhooks, e.g. 200/s for 60 s or 20/s for 600 s (got 200 × 600 = 120,000)',
    ],
    [['--rate', '200', '--duration', '61'], 'at most 12,000 webhooks'],
    [['--storm', '--durration', '5'], 'unknown option "--storm"'],
    [['--durration', '5'], 'unknown option "--durration" (did you mean --duration?)'],
    [['--rate', '50', 'extra'], 'unexpected argument "extra" after 50'],
    [['--rate=50'], 'write "--rate 50"'],
    [['--rate', '5', '--rate', '10'], '--rate is given twice'],
    [['--lighthouse'], 'unknown option "--lighthouse"'],
    [['--rate', '0.01', '--duration', '1'], 'must send at least one webhook'],
    [['--db', 'postgres'], '--db must be d1 or turso, got "postgres"'],
    [['--db'], '--db needs a value'],
  ])('refuses %j with a message that says what to fix', (argv, message) => {
    expect(() => parseStormArgs(argv)).toThrow(message);
  });
});

describe('the worker CPU a storm costs', () => {
  it("takes the storm's reads out at the quiet price and divides the rest by the deliveries", () => {
    const quiet = [
      { requests: 1000, workerCpuMs: 2000 },
      { requests: 3000, workerCpuMs: 6000 },
    ];
    // 2 ms a read: 500 storm reads cost 1,000 ms of the 5,000, the other 4,000 ms are 200 deliveries'.
    expect(cpuPerRequest(quiet, { requests: 500, workerCpuMs: 5000 }, 200)).toEqual({
      perReadMs: 2,
      perDeliveryMs: 20,
    });
  });

  it('answers null when a phase has no CPU figure (no /proc) or nothing to divide by', () => {
    expect(cpuPerRequest([{ requests: 10, workerCpuMs: null }], { requests: 5, workerCpuMs: 100 }, 10)).toBeNull();
    expect(cpuPerRequest([{ requests: 10, workerCpuMs: 10 }], { requests: 5, workerCpuMs: null }, 10)).toBeNull();
    expect(cpuPerRequest([{ requests: 0, workerCpuMs: 0 }], { requests: 5, workerCpuMs: 100 }, 10)).toBeNull();
    expect(cpuPerRequest([{ requests: 10, workerCpuMs: 10 }], { requests: 5, workerCpuMs: 100 }, 0)).toBeNull();
  });
});

describe('where the cores went in a phase', () => {
  const sample = (at: number, worker: number | null, bench: number, busy: number, total: number, database = 0) => ({
    at,
    worker,
    database,
    bench,
    machine: { busy, total },
  });

  it('splits the busy cores into the worker, the bench itself and the rest, over the phase’s wall time', () => {
    // 10 s on 2 cores (20 CPU-seconds): the worker used 12, the bench 5, the machine was busy 18.
    expect(coreUse(sample(0, 100, 50, 1000, 4000), sample(10_000, 112, 55, 1018, 4020))).toEqual({
      worker: 1.2,
      database: 0,
      bench: 0.5,
      other: 0.1,
      idle: 0.2,
    });
  });

  it('counts the database server apart when it runs in its own process (--db turso)', () => {
    // Of the 18 busy CPU-seconds, the worker 9, the database server 4, the bench 3: 2 for the rest.
    expect(coreUse(sample(0, 100, 50, 1000, 4000, 10), sample(10_000, 109, 53, 1018, 4020, 14))).toEqual({
      worker: 0.9,
      database: 0.4,
      bench: 0.3,
      other: 0.2,
      idle: 0.2,
    });
  });

  it('answers null without the worker’s figure or an empty phase', () => {
    expect(coreUse(sample(0, null, 0, 0, 0), sample(1000, 1, 0, 1, 2))).toBeNull();
    expect(coreUse(sample(5, 1, 0, 1, 2), sample(5, 2, 0, 2, 4))).toBeNull();
  });
});
