import { useStore } from '@nanostores/react';
import { useMemo } from 'react';
import { client } from '../../../lib/api';
import { formatPence } from '../../../lib/format';
import { canMergeDonors, seesDonorGiving } from '../../../../domain/roles';
import { useApiGet } from '../../lib/use-api';
import { navigate } from '../../router';
import { $dashUser, viewerOf } from '../../session';
import { DataTable } from '../../tables/data-table';
import { Alert, Spinner, Stat } from '../../ui/primitives';
import { type DonorGift, givingColumns } from './giving-columns';
import { MergeDonor } from './MergeDonor';
import '../audit/audit.css';

const GIFTS_SHOWN = 100;

/**
 * Below a donor's details, for the charity's staff and finance: what they have given (totals and
 * every gift, each linked to its page), a link to the record's audit history, and for staff who may,
 * merging a duplicate record into another.
 */
export function DonorRecord({ donorId }: { donorId: string }) {
  const viewer = viewerOf(useStore($dashUser));
  if (!seesDonorGiving(viewer)) return null;
  return (
    <>
      <DonorGiving donorId={donorId} />
      {canMergeDonors(viewer) ? <MergeDonor donorId={donorId} /> : null}
    </>
  );
}

function DonorGiving({ donorId }: { donorId: string }) {
  const [state] = useApiGet(`users/${donorId}/giving`, (o) =>
    client.api.users[':id'].giving.$get({ param: { id: donorId }, query: { limit: String(GIFTS_SHOWN) } }, o),
  );
  const gifts = useMemo(() => (state.status === 'ok' ? (state.data.gifts as DonorGift[]) : []), [state]);
  // The details above already say when the donor is not found or not theirs to see.
  if (state.status === 'error') return state.error.statusCode === 404 ? null : <Alert>{state.error.message}</Alert>;
  if (state.status !== 'ok') return <Spinner label="Loading giving…" />;
  const { totals } = state.data;
  const total = Number(state.headers.get('x-total-count') ?? gifts.length);
  return (
    <section className="dash-section donor-record" aria-labelledby="donor-giving-title">
      <h2 id="donor-giving-title">Giving</h2>
      <dl className="dash-stats" aria-label="Giving totals">
        <Stat label="Given in all">{formatPence(totals.given_pence)}</Stat>
        <Stat label="This tax year">
          {formatPence(totals.tax_year_pence)}
          <small>{totals.tax_year}</small>
        </Stat>
        <Stat label="Gifts">{totals.gift_count}</Stat>
        <Stat label="Gift Aid claimed">{formatPence(totals.gift_aid_claimed_pence)}</Stat>
        <Stat label="Monthly gifts active">
          {totals.monthly_active}
          {totals.monthly_active ? <small>{formatPence(totals.monthly_active_pence)} a month</small> : null}
        </Stat>
      </dl>
      <DataTable
        caption="Gifts, newest first"
        columns={givingColumns}
        data={gifts}
        getRowId={(row) => row._id}
        onRowClick={(row) => navigate(`/dashboard/donations/edit/${encodeURIComponent(row._id)}`)}
        emptyText="No gifts yet."
      />
      <p className="dash-hint">
        {total > gifts.length ? `The newest ${gifts.length} of ${total} gifts. ` : null}
        Totals count paid gifts net of refunds; Gift Aid claimed is less any repaid to HMRC after a refund.{' '}
        <a href={`/dashboard/audit?target_type=user&target=${encodeURIComponent(donorId)}`}>Changes to this record</a>
      </p>
    </section>
  );
}
