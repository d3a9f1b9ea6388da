import { describe, expect, it } from 'vitest';
import {
  cpuFigures,
  LIGHTHOUSE_USAGE,
  lighthouseVerdicts,
  type LighthouseRun,
  parseLighthouseArgs,
} from './bench-lighthouse';

const main = { pid: 1, tid: 7 };
const task = (tdurMs: number, durMs: number, name = 'RunTask') => ({
  ...main,
  name,
  ph: 'X',
  ts: 0,
  dur: durMs * 1000,
  tdur: tdurMs * 1000,
});

describe('bench --lighthouse', () => {
  it('counts the page main thread by CPU time x4, not by wall time, and its blocking part past 50 ms', () => {
    const events = [
      { ...main, name: 'thread_name', ph: 'M', ts: 0, args: { name: 'CrRendererMain' } },
      { ...main, name: 'ParseHTML', ph: 'X', ts: 0, dur: 1000 },
      task(5, 40),
      task(20, 90, 'ThreadControllerImpl::RunTask'),
      // Another renderer's task is not the page's.
      { pid: 2, tid: 7, name: 'RunTask', ph: 'X', ts: 0, dur: 50_000, tdur: 50_000 },
    ];
    expect(cpuFigures(events)).toEqual({ cpuMainThreadMs: 100, cpuBlockingMs: 30 });
    expect(cpuFigures([])).toEqual({ cpuMainThreadMs: Number.NaN, cpuBlockingMs: Number.NaN });
  });

  it('passes a page and condition only when every run meets every target', () => {
    const run = (over: Partial<LighthouseRun>): LighthouseRun => ({
      page: 'home',
      condition: 'busy',
      scores: { performance: 100, accessibility: 100 },
      lcp: 900,
      tbt: 20,
      cls: 0,
      mainThreadMs: 800,
      styleLayoutMs: 100,
      scriptMs: 100,
      documentBytes: 14_000,
      load: 1,
      cpuMainThreadMs: 500,
      cpuBlockingMs: 0,
      ...over,
    });
    const [good] = lighthouseVerdicts([run({}), run({ tbt: 50 })]);
    expect(good).toMatchObject({
      pass: true,
      runsAllHundred: 2,
      worstTbt: 50,
      loads: [1, 1],
      worstDocumentBytes: 14_000,
    });
    const [bad] = lighthouseVerdicts([run({}), run({ scores: { performance: 99, accessibility: 100 } })]);
    expect(bad).toMatchObject({ pass: false, runsAllHundred: 1, worstScore: 99 });
    expect(lighthouseVerdicts([run({ mainThreadMs: 1001 })])[0].pass).toBe(false);
  });
});

describe('bench --lighthouse options', () => {
  it('keeps the defaults and reads every option', () => {
    expect(parseLighthouseArgs([])).toEqual({
      runs: 5,
      only: undefined,
      saveDir: undefined,
      dist: 'dist',
      out: 'bench-lighthouse.json',
    });
    expect(
      parseLighthouseArgs(['--runs', '2', '--only', 'busy', '--save', 'traces', '--dist', 'old', '--out', 'x.json']),
    ).toEqual({ runs: 2, only: 'busy', saveDir: 'traces', dist: 'old', out: 'x.json' });
  });

  it.each([
    [['--runs', '0'], '--runs must be a whole number from 1 to 10, got "0"'],
    [['--runs', '11'], '--runs must be a whole number from 1 to 10'],
    [['--runs', '2.5'], '--runs must be a whole number from 1 to 10'],
    [['--runs'], '--runs needs a value'],
    [['--only', 'loud'], '--only must be quiet or busy, got "loud"'],
    [['--rnus', '3'], 'unknown option "--rnus" (did you mean --runs?)'],
    [['--runs', '3', 'extra'], 'unexpected argument "extra" after 3'],
    [['--save'], '--save needs a value'],
  ])('refuses %j with a message that says what to fix', (argv, message) => {
    expect(() => parseLighthouseArgs(argv)).toThrow(message);
  });

  it('names every option in its usage', () => {
    for (const option of ['--runs', '--only', '--save', '--dist', '--out']) expect(LIGHTHOUSE_USAGE).toContain(option);
  });
});
