import { describe, expect, it } from 'vitest';
import { parseStormArgs } from './bench-storm';

describe('npm run bench -- --storm options', () => {
  it('defaults to 20 webhooks a second for 60 s, with 30 s of quiet reads', () => {
    expect(parseStormArgs([])).toMatchObject({
      rate: 20,
      duration: 60,
      quiet: 30,
      capacity: 0,
      out: 'bench-storm.json',
    });
    expect(parseStormArgs(['--rate', '2.5', '--duration', '600', '--capacity', '100'])).toMatchObject({
      rate: 2.5,
      duration: 600,
      capacity: 100,
    });
  });

  it.each([
    [['--rate', '0'], '--rate must be more than 0 and at most 200'],
    [['--rate', '-3'], '--rate must be more than 0'],
    [['--rate', '201'], 'at most 200 webhooks a second'],
    [['--rate', 'fast'], '--rate must be a number'],
    [['--rate', ''], '--rate must be a number'],
    [['--rate'], '--rate needs a value'],
    [['--duration', '0'], '--duration must be more than 0'],
    [['--duration', '601'], 'at most 600 seconds'],
    [['--duration', 'NaN'], '--duration must be a number'],
    [['--quiet', '0'], '--quiet must be at least 1'],
    [['--capacity', '2.5'], '--capacity must be a whole number'],
    [['--rate', '0.01', '--duration', '1'], 'must send at least one webhook'],
  ])('refuses %j with a message that says what to fix', (argv, message) => {
    expect(() => parseStormArgs(argv)).toThrow(message);
  });
});
