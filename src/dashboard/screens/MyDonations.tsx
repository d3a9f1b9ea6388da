import { useMemo } from 'react';
import { client } from '../../lib/api';
import { useApiGet } from '../lib/use-api';
import { DataTable } from '../tables/data-table';
import { myDonationColumns } from '../tables/donations/my-columns';
import { Alert, LinkButton, PageHeader } from '../ui/primitives';
import { MonthlyGifts } from './my-donations/MonthlyGifts';

export function MyDonations() {
  const [state] = useApiGet('donations?type=me', (o) => client.api.donations.$get({ query: { type: 'me' } }, o));
  const rows = useMemo(() => (state.status === 'ok' ? state.data : []), [state]);
  return (
    <section className="dash-section">
      <PageHeader
        title="My Donations"
        actions={
          <>
            <LinkButton href="/statement" outline small>
              Annual statement
            </LinkButton>
            <LinkButton href="/appeals" small>
              Donate
            </LinkButton>
          </>
        }
      />
      <MonthlyGifts />
      {state.status === 'error' ? <Alert>{state.error.message}</Alert> : null}
      <DataTable
        caption="My Donations"
        columns={myDonationColumns}
        data={rows}
        getRowId={(r) => r._id}
        loading={state.status === 'loading' || state.status === 'idle'}
      />
    </section>
  );
}
