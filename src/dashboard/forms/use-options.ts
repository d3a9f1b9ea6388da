import { useMemo } from 'react';
import { parseRows } from '../lib/parse';
import { donorSchema } from '../tables/donors/data/schema';
import type { Option } from '../ui/primitives';
import { useApiGet } from '../lib/use-api';
import { z } from 'zod';

/** Donors as select options: "First Last (email)". */
export function useDonorOptions(): Option[] {
  const [state] = useApiGet<unknown>('/api/users?limit=1000');
  return useMemo(() => {
    if (state.status !== 'ok') return [];
    return parseRows(donorSchema, state.data).map((d) => {
      const name = [d.name?.first_name, d.name?.last_name].filter(Boolean).join(' ');
      return { value: d._id, label: name ? `${name}${d.email ? ` (${d.email})` : ''}` : (d.email ?? d._id) };
    });
  }, [state]);
}

const tinySchema = z.object({ _id: z.string(), title: z.string().nullish() });

export function useCampaignOptions(path: string | null): Option[] {
  const [state] = useApiGet<unknown>(path);
  return useMemo(
    () => (state.status === 'ok' ? parseRows(tinySchema, state.data).map((c) => ({ value: c._id, label: c.title || c._id })) : []),
    [state],
  );
}
