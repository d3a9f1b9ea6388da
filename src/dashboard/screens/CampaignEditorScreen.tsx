import { useStore } from '@nanostores/react';
import { lazy, Suspense } from 'react';
import { canCreateCampaigns } from '../../../domain/roles';
import type { CampaignKind } from '../lib/routes';
import { goBack } from '../router';
import { $dashUser, viewerOf } from '../session';
import { Alert, Spinner } from '../ui/primitives';

// Loaded on demand: the editor (image handling, templates) is only needed on -add/-edit paths.
const CampaignEditor = lazy(() => import('../../components/editor/CampaignEditor'));

export function CampaignEditorScreen({ kind, id }: { kind: CampaignKind; id?: string }) {
  const user = useStore($dashUser);
  const redirectTo = kind === 'campaign' ? '/dashboard/active-campaigns' : '/dashboard/active-appeals';
  // Only staff start campaigns: say so before the form, not after Continue.
  if (kind === 'campaign' && !id && user && !canCreateCampaigns(viewerOf(user))) {
    return (
      <section className="dash-section">
        <h1>Add Campaign</h1>
        <Alert tone="info">
          Campaigns are set up by the charities' staff. You can{' '}
          <a href="/dashboard/active-appeals-add">start an appeal</a> under one of them instead.
        </Alert>
      </section>
    );
  }
  return (
    <section className="dash-section">
      <Suspense fallback={<Spinner label="Editor loading..." />}>
        <CampaignEditor kind={kind} id={id} redirectTo={redirectTo} onCancel={() => goBack(redirectTo)} />
      </Suspense>
    </section>
  );
}
