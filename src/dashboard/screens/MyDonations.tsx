import { useMemo } from 'react';
import { DIRECT_DEBIT_FIRST_PAYMENT_DAYS } from '../../../domain';
import { client } from '../../lib/api';
import { useApiGet } from '../lib/use-api';
import { DataTable } from '../tables/data-table';
import { myDonationColumns } from '../tables/donations/my-columns';
import { Alert, LinkButton, PageHeader } from '../ui/primitives';
import { MonthlyGifts } from './my-donations/MonthlyGifts';

export function MyDonations() {
  const [state] = useApiGet('donations?type=me', (o) => client.api.donations.$get({ query: { type: 'me' } }, o));
  const rows = useMemo(() => (state.status === 'ok' ? state.data : []), [state]);
  const processing = rows.filter((r) => r.status === 'processing');
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
      {processing.length > 0 ? (
        // A monthly gift is listed above only once its first payment is paid: say where a new one is meanwhile.
        <Alert tone="info">
          A Direct Debit shows as Processing until the bank pays it, about {DIRECT_DEBIT_FIRST_PAYMENT_DAYS} working
          days after it was set up; until then it is not in any total, receipt or Gift Aid claim.
          {processing.some((r) => r.type === 'monthly')
            ? ' Your new monthly gift appears under Monthly gifts, with its next payment date, once its first payment is paid.'
            : ''}
        </Alert>
      ) : null}
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
