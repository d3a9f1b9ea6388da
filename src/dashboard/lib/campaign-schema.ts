/** The dashboard's campaign cards show the API's campaigns as the contract types them. */
export type { Campaign as CampaignItem } from '../../lib/api';
export { CAMPAIGN_STATUSES } from '../../../domain/statuses';
