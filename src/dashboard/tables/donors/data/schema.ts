import { z } from 'zod';
import { addressSchema } from '../../organizations/data/schema';

export const donorSchema = z.object({
  _id: z.string(),
  email: z.string().nullish(),
  name: z.object({ first_name: z.string().nullish(), last_name: z.string().nullish() }).partial().nullish(),
  phone: z.string().nullish(),
  image: z.string().nullish(),
  avatar: z.string().nullish(),
  type: z.string().nullish(),
  address: addressSchema,
  org_ids: z.array(z.string()).nullish(),
  erased_at: z.string().nullish(),
  erasure: z.object({ outcome: z.string(), requested_at: z.string(), completed_at: z.string().nullish(), detail: z.string().nullish() }).nullish(),
});

export type Donor = z.infer<typeof donorSchema>;
