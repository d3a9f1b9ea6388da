import { useStore } from '@nanostores/react';
import { journalCodesOf } from '../../../domain/finance';
import { setsAnyNominalCodes } from '../../../domain/roles';
import { client } from '../../lib/api';
import { listPathOf } from '../lib/routes';
import { useApiGet } from '../lib/use-api';
import { $dashUser, viewerOf } from '../session';

const describe = (codes: ReturnType<typeof journalCodesOf>) =>
  `income ${codes.income_code}, fees ${codes.fee_code}, Stripe clearing ${codes.clearing_code}, bank ${codes.bank_code}`;

/**
 * Beside the journal buttons: the nominal codes the export posts to, with a link to change them,
 * for those who may (docs/decisions/035). One organization: its codes; several: the defaults.
 */
export function JournalCodesNote() {
  const viewer = viewerOf(useStore($dashUser));
  const only = viewer?.orgIds.length === 1 ? viewer.orgIds[0] : null;
  const shown = setsAnyNominalCodes(viewer);
  const [load] = useApiGet(shown && only ? `organizations/${only}` : null, (o) =>
    client.api.organizations[':id'].$get({ param: { id: only! } }, o),
  );
  if (!shown) return null;
  if (only) {
    if (load.status !== 'ok') return null;
    return (
      <p className="dash-hint dash-journal-codes">
        The journal posts {load.data.name}&rsquo;s gifts to {describe(journalCodesOf(load.data))}.{' '}
        <a className="dash-link" href={`${listPathOf('organizations')}/edit/${load.data._id}`}>
          Change the codes
        </a>
      </p>
    );
  }
  return (
    <p className="dash-hint dash-journal-codes">
      Each organization&rsquo;s journal posts to the codes set on its page; unset, {describe(journalCodesOf(null))}.{' '}
      <a className="dash-link" href={listPathOf('organizations')}>
        Organizations
      </a>
    </p>
  );
}
