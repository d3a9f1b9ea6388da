import { describe, expect, it } from 'vitest';
import { fieldLabel, showValue } from './columns';

describe('the audit log shows stored values as a person reads them', () => {
  it('spells out a refund row field by field, its amount in pounds, never as JSON', () => {
    const refund = { id: '853f06d6-388d', amount: 3000, reason: 'requested_by_customer' };
    expect(showValue('reversal', refund)).toBe('id 853f06d6-388d, amount £30.00, reason requested_by_customer');
  });

  it('lists the ids of a batch separated by commas, and an empty list as a dash', () => {
    expect(showValue('donation_ids', ['a1', 'b2'])).toBe('a1, b2');
    expect(showValue('donation_ids', [])).toBe('–');
  });

  it('keeps plain values: pence fields in pounds, empty as a dash', () => {
    expect(showValue('expected_total', 7550)).toBe('£75.50');
    expect(showValue('total', 127_500)).toBe('£1,275.00');
    expect(showValue('gift_count', 3)).toBe('3');
    expect(showValue('note', null)).toBe('–');
  });
});

describe('the audit log names fields in words', () => {
  it('splits camelCase and snake_case, and shows a goal in pounds', () => {
    expect(fieldLabel('lastName')).toBe('last name');
    expect(fieldLabel('income_code')).toBe('income code');
    expect(fieldLabel('dateFrom')).toBe('date from');
    expect(showValue('goal', 50_000)).toBe('£500.00');
  });
});
