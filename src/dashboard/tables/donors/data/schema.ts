/** Rows of the donors table: the API contract's Donor (api/schemas through src/lib/api.ts). */
export type { Donor } from '../../../../lib/api';
