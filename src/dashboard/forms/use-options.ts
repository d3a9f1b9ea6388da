import { useEffect, useMemo, useState } from 'react';
import { shownEmail } from '../../../domain/email';
import { client } from '../../lib/api';
import { useApiGet } from '../lib/use-api';
import type { Option } from '../ui/primitives';

/** How many donors one search shows; narrow the search to find others. */
export const DONOR_SEARCH_LIMIT = 20;

const donorLabel = (d: { _id: string; email: string; name: { first_name: string; last_name: string } }) => {
  const name = [d.name.first_name, d.name.last_name].filter(Boolean).join(' ');
  return name ? `${name} (${shownEmail(d.email)})` : d.email || d._id;
};

/** `value` once it has stopped changing for `ms`. */
function useDebounced<T>(value: T, ms = 250): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * Donors as select options, searched on the server (GET /api/users?search=, name or email): the
 * form asks for the few that match instead of loading every donor.
 */
export function useDonorSearch(term: string, limit = DONOR_SEARCH_LIMIT): { options: Option[]; loading: boolean } {
  const search = useDebounced(term.trim());
  const [state] = useApiGet(`users?search=${search}&limit=${limit}`, (o) =>
    client.api.users.$get({ query: { search: search || undefined, limit } }, o),
  );
  const options = useMemo(
    () => (state.status === 'ok' ? state.data.map((d) => ({ value: d._id, label: donorLabel(d) })) : []),
    [state],
  );
  return { options, loading: state.status === 'loading' };
}

/** Approved campaigns (ids and titles) for the campaign select. */
export function useCampaignOptions(enabled = true): Option[] {
  const [state] = useApiGet(enabled ? 'campaigns?tiny=true' : null, (o) =>
    client.api.campaigns.$get({ query: { tiny: 'true' } }, o),
  );
  return useMemo(
    () => (state.status === 'ok' ? state.data.map((c) => ({ value: c._id, label: c.title || c._id })) : []),
    [state],
  );
}

/** The appeals of one campaign; none until a campaign is chosen. */
export function useAppealOptions(campaignId: string): Option[] {
  const [state] = useApiGet(campaignId ? `campaigns/${campaignId}/appeals` : null, (o) =>
    client.api.campaigns[':id'].appeals.$get({ param: { id: campaignId }, query: { limit: 100 } }, o),
  );
  return useMemo(
    () => (state.status === 'ok' ? state.data.map((c) => ({ value: c._id, label: c.title || c._id })) : []),
    [state],
  );
}
