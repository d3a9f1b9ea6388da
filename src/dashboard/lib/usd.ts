/** Spec section 9: the mock tables format amounts in USD, en-US. */
export const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
