import { describe, expect, it } from 'vitest';
import { appealsStartedLine, raisesForLine } from './TemplateCauses';

describe('raisesForLine (decision 074)', () => {
  const now = new Date('2026-11-29T12:00:00Z');
  const water = { _id: 'w', title: 'Clean Water', date: { to: '2026-12-31' } };
  const ended = { _id: 'e', title: 'Winter Appeal', date: { to: '2026-11-28' } };
  const open = { _id: 'o', title: 'Open-ended', date: { to: null } };

  it('names the campaign a cause raises for while it takes appeals', () => {
    expect(raisesForLine('w', [water, ended], now)).toBe('Clean Water');
    expect(raisesForLine('o', [open], now)).toBe('Open-ended');
    // Its last day is still a giving day.
    expect(raisesForLine('w', [{ ...water, date: { to: '2026-11-29' } }], now)).toBe('Clean Water');
  });

  it('says when the fundraiser chooses instead: no campaign, one that ended, one not on the site', () => {
    expect(raisesForLine(null, [water], now)).toBe('the campaign the fundraiser chooses');
    expect(raisesForLine('e', [water, ended], now)).toBe(
      'Winter Appeal (ended 28 Nov 2026), so the fundraiser chooses',
    );
    expect(raisesForLine('gone', [water], now)).toBe('a campaign not on the site, so the fundraiser chooses');
  });
});

describe('appealsStartedLine', () => {
  it('says how many appeals started from a cause, in words for none and one', () => {
    expect(appealsStartedLine(0)).toBe('No appeals started from it yet');
    expect(appealsStartedLine(1)).toBe('1 appeal started from it');
    expect(appealsStartedLine(1234)).toBe('1,234 appeals started from it');
  });
});
