import type { Organization } from '../../../../lib/api';

/** Rows of the organizations table: the API contract's Organization (api/schemas through src/lib/api.ts). */
export type { Organization };
export type Address = Organization['address'];

/** "1 High St, Leeds, LS1 1AA, United Kingdom"; '-' when nothing is known. */
export function addressText(address: Partial<Address> | null | undefined): string {
  if (!address) return '-';
  const parts = [address.address, address.city, address.province, address.postal_code, address.country]
    .map((p) => (p ?? '').trim())
    .filter(Boolean);
  return parts.length ? parts.join(', ') : '-';
}
