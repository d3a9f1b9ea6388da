import { describe, expect, it } from 'vitest';
import { providerFeeOf } from '../../domain/finance';

describe('providerFeeOf: the fee the accounts journal and the donations CSV count', () => {
  it("is Stripe's reported fee for a card or Direct Debit gift, and unknown (null) until Stripe reports it", () => {
    expect(providerFeeOf({ method: 'card', source: 'card', feePence: 58 })).toBe(58);
    expect(providerFeeOf({ method: 'bacs_debit', source: 'card', feePence: 20 })).toBe(20);
    expect(providerFeeOf({ method: 'card', source: 'demo', feePence: null })).toBeNull();
  });

  it('treats a gift with no method from the card or demo checkout as paid through Stripe', () => {
    expect(providerFeeOf({ method: null, source: 'card', feePence: 35 })).toBe(35);
    expect(providerFeeOf({ method: null, source: 'demo', feePence: null })).toBeNull();
  });

  it('is 0 for offline and hand-recorded gifts, which no provider charged for', () => {
    expect(providerFeeOf({ method: 'cheque', source: 'batch', feePence: null })).toBe(0);
    expect(providerFeeOf({ method: 'cash', source: 'batch', feePence: 99 })).toBe(0);
    expect(providerFeeOf({ method: null, source: 'manual', feePence: null })).toBe(0);
  });
});
