import { z } from 'zod';
import { optionSchema } from '../../organizations/data/schema';

export const donationSchema = z.object({
  _id: z.string(),
  amount: z.number().nullish(),
  date: z.union([z.string(), z.number()]).nullish(),
  status: z.string().nullish(),
  type: z.string().nullish(),
  gift_aid: z.boolean().nullish(),
  source: z.string().nullish(),
  subscription_id: z.string().nullish(),
  donor: optionSchema.nullish(),
  campaign: optionSchema.nullish(),
  appeal: optionSchema.nullish(),
});

export type Donation = z.infer<typeof donationSchema>;
