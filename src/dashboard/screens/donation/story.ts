import type { client, Data } from '../../../lib/api';

/** One gift's story as GET /api/donations/{id}/story answers it: what every part of the donation page reads. */
export type DonationStory = Data<(typeof client.api.donations)[':id']['story']['$get']>;
