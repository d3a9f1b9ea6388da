import { lazy, Suspense } from 'react';
import type { CampaignKind } from '../lib/routes';
import { Spinner } from '../ui/primitives';

// Loaded on demand: the editor (image handling, templates) is only needed on -add/-edit paths.
const CampaignEditor = lazy(() => import('../../components/editor/CampaignEditor'));

export function CampaignEditorScreen({ kind, id }: { kind: CampaignKind; id?: string }) {
  const redirectTo = kind === 'campaign' ? '/dashboard/active-campaigns' : '/dashboard/active-appeals';
  return (
    <section className="dash-section">
      <Suspense fallback={<Spinner label="Editor loading..." />}>
        <CampaignEditor kind={kind} id={id} redirectTo={redirectTo} />
      </Suspense>
    </section>
  );
}
