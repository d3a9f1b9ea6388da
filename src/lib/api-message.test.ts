import { describe, expect, it } from 'vitest';
import { readableApiMessage } from './api-message';

describe('API error messages as the dashboard shows them', () => {
  it('names fields as the forms do, without the transport prefix', () => {
    expect(readableApiMessage('amount_min: Must be 0 or more')).toBe('Smallest amount: Must be 0 or more');
    expect(readableApiMessage('body.amount: Enter an amount')).toBe('Amount: Enter an amount');
    expect(readableApiMessage('query.page: Enter a whole number')).toBe('Page: Enter a whole number');
    expect(readableApiMessage('first_name: Use at most 35 characters')).toBe('First name: Use at most 35 characters');
    expect(readableApiMessage('gifts.2.amount: too large')).toBe('Gift 3, amount: too large');
  });

  it('says a field once, keeps every part, and leaves plain sentences alone', () => {
    expect(readableApiMessage('name: Name is required; email: Enter a valid email address')).toBe(
      'Name is required; Email: Enter a valid email address',
    );
    expect(readableApiMessage('goal must be a number of pence, e.g. 50000 for £500')).toBe(
      'goal must be a number of pence, e.g. 50000 for £500',
    );
    expect(readableApiMessage('This monthly gift is already cancelled')).toBe('This monthly gift is already cancelled');
    // A sentence with a colon further on is not a field prefix.
    expect(readableApiMessage('We could not save: please try again')).toBe('We could not save: please try again');
  });
});
