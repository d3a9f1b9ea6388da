import { z } from 'zod';

export const campaignSchema = z.object({
  _id: z.string(),
  short_id: z.string().nullish(),
  title: z.string().nullish(),
  description: z.string().nullish(),
  images: z.array(z.object({ url: z.string().nullish() }).passthrough()).nullish(),
  goal: z.number().nullish(),
  summary: z.object({ total_donations: z.number().nullish() }).passthrough().nullish(),
  status: z.string().nullish(),
  campaign_id: z.string().nullish(),
  created_by: z.object({ first_name: z.string().nullish(), last_name: z.string().nullish() }).nullish(),
});

export type CampaignItem = z.infer<typeof campaignSchema>;
export const CAMPAIGN_STATUSES = ['draft', 'approved', 'deleted'] as const;
