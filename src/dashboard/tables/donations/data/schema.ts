/** Rows of the donations table: the API contract's Donation (api/schemas through src/lib/api.ts). */
export type { Donation } from '../../../../lib/api';
