import { z } from 'zod';

export const addressSchema = z
  .object({
    address: z.string().nullish(),
    city: z.string().nullish(),
    province: z.string().nullish(),
    postal_code: z.string().nullish(),
    country: z.string().nullish(),
  })
  .partial()
  .nullish();

export const optionSchema = z.object({ label: z.string().nullish(), value: z.string() });

export const organizationSchema = z.object({
  _id: z.string(),
  name: z.string().nullish(),
  image: z.string().nullish(),
  email: z.string().nullish(),
  phone: z.string().nullish(),
  hmrc_reference: z.string().nullish(),
  charity_number: z.string().nullish(),
  address: addressSchema,
  admins: z.array(optionSchema).nullish(),
});

export type Organization = z.infer<typeof organizationSchema>;
export type Address = NonNullable<z.infer<typeof addressSchema>>;

/** "1 High St, Leeds, LS1 1AA, United Kingdom"; '-' when nothing is known. */
export function addressText(address: Address | null | undefined): string {
  if (!address) return '-';
  const parts = [address.address, address.city, address.province, address.postal_code, address.country]
    .map((p) => (p ?? '').trim())
    .filter(Boolean);
  return parts.length ? parts.join(', ') : '-';
}
