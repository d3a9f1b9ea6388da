import { useStore } from '@nanostores/react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { DonationForm } from './forms/DonationForm';
import { DonorForm } from './forms/DonorForm';
import { DonorDeclarations } from './screens/gift-aid/DonorDeclarations';
import { DonorRecord } from './screens/donors/DonorRecord';
import { AuditScreen } from './screens/audit/AuditScreen';
import { DonationPage } from './screens/donation/DonationPage';
import { OrganizationForm } from './forms/OrganizationForm';
import { listsOnlyMine, matchRoute, type Route, routeTitle } from './lib/routes';
import { $location } from './router';
import { AdminList, canAdd, NotYoursToAdd } from './screens/AdminList';
import { CampaignEditorScreen } from './screens/CampaignEditorScreen';
import { CampaignList } from './screens/CampaignList';
import { MonthlyGiftsScreen } from './screens/MonthlyGiftsScreen';
import { MyDonations } from './screens/MyDonations';
import { MyPrivacy } from './screens/my-info/MyPrivacy';
import { Overview } from './screens/Overview';
import { GiftAidRoute } from './screens/gift-aid/GiftAidRoute';
import { ContactSupport } from './screens/support/ContactSupport';
import { SupportInbox } from './screens/support/SupportInbox';
import { TemplateCauseForm, TemplateCauseList } from './screens/template-causes/TemplateCauses';
import { AppealSupporters } from './screens/supporters/AppealSupporters';
import { BatchEntry } from './screens/batches/BatchEntry';
import { BatchList, BatchView } from './screens/batches/BatchView';
import { PayoutList, PayoutView } from './screens/payouts/PayoutsScreen';
import { Communication, CommunicationDetail } from './screens/mock/Communication';
import { DonationHistory } from './screens/mock/DonationHistory';
import { Events } from './screens/mock/Events';
import { Faqs } from './screens/mock/Faqs';
import { PaymentMethods } from './screens/mock/Payments';
import { ReceiptTable } from './screens/mock/ReceiptTables';
import { Resources } from './screens/mock/Resources';
import { Rewards } from './screens/mock/Rewards';
import { $dashUser, type DashUser, isAdmin, isStaff as isStaffUser } from './session';

function screenFor(route: Route, user: DashUser | null | undefined, isStaff = false) {
  const orgId = user?.org_ids?.[0];
  switch (route.name) {
    case 'overview':
      return <Overview />;
    case 'gift-aid':
      return <GiftAidRoute />;
    case 'batches':
      return <BatchList />;
    case 'batch-entry':
      return <BatchEntry />;
    case 'batch':
      return <BatchView key={route.id} id={route.id} />;
    case 'monthly-gifts':
      return <MonthlyGiftsScreen />;
    case 'audit':
      return <AuditScreen />;
    case 'payouts':
      return <PayoutList />;
    case 'payout':
      return <PayoutView key={route.id} id={route.id} />;
    case 'list':
      return <AdminList key={route.resource} resource={route.resource} />;
    case 'my-donations':
      return <MyDonations />;
    case 'form': {
      const key = `${route.resource}-${route.id ?? 'add'}`;
      if (!route.id && user && !canAdd(route.resource, user))
        return <NotYoursToAdd resource={route.resource} user={user} />;
      if (route.resource === 'organizations') return <OrganizationForm key={key} id={route.id} />;
      if (route.resource === 'donors') return <DonorPage key={key} id={route.id} isStaff={isStaff} />;
      // A gift's page tells its whole story (Gift Aid verification included); adding one keeps the form.
      return route.id ? <DonationPage key={key} id={route.id} /> : <DonationForm key={key} />;
    }
    case 'settings':
      return <OrganizationForm key={`settings-${orgId ?? 'add'}`} id={orgId} />;
    case 'campaign-list':
      return <CampaignList key={route.kind} kind={route.kind} />;
    case 'campaign-editor':
      return <CampaignEditorScreen key={`${route.kind}-${route.id ?? 'add'}`} kind={route.kind} id={route.id} />;
    case 'donate-history':
      return <DonationHistory />;
    case 'donate-receipts':
      return <ReceiptTable key="receipts" kind="receipts" />;
    case 'donate-recurring':
      return <ReceiptTable key="recurring" kind="recurring" />;
    case 'reward':
      return <Rewards />;
    case 'event':
      return <Events />;
    case 'communication':
      return <Communication />;
    case 'communication-detail':
      return <CommunicationDetail id={route.id} />;
    case 'payment':
      return <PaymentMethods />;
    case 'faqs':
      return <Faqs />;
    case 'contact':
      return <ContactSupport />;
    case 'support-inbox':
      return <SupportInbox />;
    case 'template-causes':
      return <TemplateCauseList />;
    case 'supporters':
      return <AppealSupporters key={route.id} id={route.id} />;
    case 'template-cause-form':
      return <TemplateCauseForm key={route.id ?? 'add'} id={route.id} />;
    case 'resources':
      return <Resources />;
    case 'not-found':
      return (
        <section className="dash-section dash-empty">
          <h1>Not Found</h1>
          <p>This dashboard page does not exist.</p>
          <a className="btn btn-primary" href="/dashboard/overview">
            Go to Overview
          </a>
        </section>
      );
  }
}

export function RouteView() {
  const { pathname, search, visit } = useStore($location);
  const user = useStore($dashUser);
  const route = matchRoute(pathname);
  const mainRef = useRef<HTMLElement>(null);
  const first = useRef(true);

  // The title follows the viewer too (a donor's "My Appeals"); focus moves only with the page.
  const title = routeTitle(route, isStaffUser(user), listsOnlyMine(search));
  useEffect(() => {
    document.title = `${title ?? 'Dashboard'} | UK NFP Dashboard`;
  }, [title]);
  useEffect(() => {
    // Move focus to the new page for screen readers, but not on the first load.
    if (first.current) first.current = false;
    else mainRef.current?.focus({ preventScroll: true });
  }, [visit]);

  return (
    <main id="dash-main" className="dash-main" tabIndex={-1} ref={mainRef}>
      {screenFor(route, user, isAdmin(user))}
    </main>
  );
}

/**
 * A donor's form, then (once it is on screen) the panels below it: My Info's privacy panels, or
 * another donor's record and declarations. Shown before the form, they were pushed down when it
 * came, with "Delete my account" moving under the reader's finger.
 */
function DonorPage({ id, isStaff }: { id?: string; isStaff: boolean }) {
  // Only once the form is there, and only for a donor who exists ("Donor Not Found" has no panels).
  const [formShown, setFormShown] = useState(false);
  const showPanels = useCallback((found: boolean) => setFormShown(found), []);
  return (
    <>
      <DonorForm id={id} onShown={showPanels} />
      {formShown && id === 'me' ? <MyPrivacy /> : null}
      {formShown && id && id !== 'me' ? <DonorRecord donorId={id} /> : null}
      {formShown && id && id !== 'me' && isStaff ? <DonorDeclarations donorId={id} /> : null}
    </>
  );
}
