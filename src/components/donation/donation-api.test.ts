import { describe, expect, it } from 'vitest';
import { paymentReturn } from './donation-api';

describe('paymentReturn', () => {
  it.each([
    ['?donation=complete&redirect_status=succeeded', 'success'],
    ['?donation=complete&redirect_status=processing', 'success'],
    ['?donation=success', 'success'],
    ['?donation=complete', 'success'],
    ['?donation=complete&redirect_status=failed', 'failed'],
    ['?donation=complete&redirect_status=requires_payment_method', 'failed'],
    ['?donation=complete&redirect_status=canceled', 'failed'],
    ['?donation=complete&redirect_status=', 'failed'],
    ['?redirect_status=succeeded', null],
    ['?donation=other', null],
    ['', null],
  ])('%s → %s', (search, expected) => {
    expect(paymentReturn(search)).toBe(expected);
  });
});
