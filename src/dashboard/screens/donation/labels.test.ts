import { describe, expect, it } from 'vitest';
import { claimedLabel, notClaimedLabel } from './labels';

describe('notClaimedLabel: the Claim fact of a gift in no Gift Aid claim', () => {
  const gift = { requested: true, declared: true, amount: 2_500, remaining: 2_500 };

  it('says how much Gift Aid is left to claim on a whole gift', () => {
    expect(notClaimedLabel(gift)).toBe('Not claimed yet: £6.25 to claim');
  });

  it('claims only on what remains after a partial refund, rounded down to the penny', () => {
    expect(notClaimedLabel({ ...gift, remaining: 1_450 })).toBe(
      'Not claimed yet: £3.62 to claim on the £14.50 that remains',
    );
  });

  it('says nothing will be claimed once all of the gift went back', () => {
    expect(notClaimedLabel({ ...gift, remaining: 0 })).toBe('Nothing to claim: all of the gift went back');
  });

  it('promises nothing without Gift Aid or a declaration', () => {
    expect(notClaimedLabel({ ...gift, requested: false })).toBe('Not claimed');
    expect(notClaimedLabel({ ...gift, declared: false })).toBe('Not claimed');
  });
});

describe('claimedLabel: a gift in a claim', () => {
  it('names the amount on the schedule and the Gift Aid it brings, so neither reads as the other', () => {
    expect(claimedLabel(1_450)).toBe('£14.50 of the gift on its schedule, £3.62 Gift Aid');
  });
});
