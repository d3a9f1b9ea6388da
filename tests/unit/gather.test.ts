import { describe, expect, it } from 'vitest';
import { gatherer } from '../../api/lib/gather';

describe('gatherer (api/lib/gather.ts): a burst shares one flush per window', () => {
  it('flushes the first item at once, the rest of its window together at the window’s end, at most `max` a flush', async () => {
    const flushes: string[][] = [];
    const waits: number[] = [];
    let release: () => void = () => {};
    const windowEnd = new Promise<void>((resolve) => (release = resolve));
    const gather = gatherer<object, string>(
      async (_key, items) => {
        flushes.push(items);
      },
      { windowMs: 1000, max: 3 },
    );
    const key = {};
    const wait = async (ms: number) => {
      waits.push(ms);
      await windowEnd;
    };
    await gather(key, 'a', { now: 0, wait });
    expect(flushes).toEqual([['a']]);
    const later = ['b', 'c', 'd', 'e'].map((item, i) => gather(key, item, { now: 100 + i, wait }));
    // b, c and d wait for the first window's end; e, past `max`, opens the next window after it.
    expect(waits).toEqual([900, 1897]);
    release();
    await Promise.all(later);
    expect(flushes).toEqual([['a'], ['b', 'c', 'd'], ['e']]);
  });

  it('keeps windows apart per key, and a quiet spell lets the next item go at once', async () => {
    const flushes: string[][] = [];
    const gather = gatherer<object, string>(
      async (_key, items) => {
        flushes.push(items);
      },
      { windowMs: 1000, max: 10 },
    );
    const one = {};
    const two = {};
    await gather(one, 'a', { now: 0 });
    await gather(two, 'b', { now: 10 });
    await gather(one, 'c', { now: 5000 });
    expect(flushes).toEqual([['a'], ['b'], ['c']]);
  });
});
