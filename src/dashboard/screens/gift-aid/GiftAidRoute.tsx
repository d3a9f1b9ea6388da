import { useStore } from '@nanostores/react';
import { seesGiftAidClaims } from '../../../../domain/roles';
import { $dashUser, viewerOf } from '../../session';
import { Alert, Spinner } from '../../ui/primitives';
import { GiftAidScreen } from './GiftAidScreen';
import { MyGiftAid } from './MyGiftAid';

/**
 * /dashboard/gift-aid: the claim screen for the charities' staff; anyone else gets their own
 * Gift Aid declarations instead of a screen that would only answer errors.
 */
export function GiftAidRoute() {
  const user = useStore($dashUser);
  if (user === undefined) return <Spinner />;
  if (seesGiftAidClaims(viewerOf(user))) return <GiftAidScreen />;
  return (
    <section className="dash-section dash-form-page">
      <h1>Your Gift Aid</h1>
      <Alert tone="info">
        Claiming Gift Aid from HMRC is done by the charity's staff, so that screen is not available to your account.
        Here you can see and change your own Gift Aid declarations.
      </Alert>
      <MyGiftAid />
    </section>
  );
}
