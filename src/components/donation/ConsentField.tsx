import { MARKETING_CONSENT_WORDING } from '../../../domain';
import { api, client } from '../../lib/api';

/**
 * "Keep me updated by email": its own unticked box with its own wording, apart from the gift
 * (PECR: consent is never bundled with the donation, never pre-ticked). The exact wording is sent
 * with the choice so the server stores what the donor saw.
 */
export function ConsentField({
  id,
  checked,
  onChange,
}: {
  id: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <label
      className="checkbox consent-field"
      htmlFor={`${id}-consent`}
      style={{
        display: 'flex',
        alignItems: 'flex-start',
        gap: '.5rem',
        minHeight: 44,
        margin: '.75rem 0',
        cursor: 'pointer',
        fontSize: '.9rem',
      }}
    >
      <input
        id={`${id}-consent`}
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        style={{ width: '1.2rem', height: '1.2rem', flex: 'none', marginTop: '.1rem', accentColor: 'var(--brand)' }}
      />
      <span>{MARKETING_CONSENT_WORDING}</span>
    </label>
  );
}

export const consentBody = (checked: boolean) =>
  checked ? { marketing_consent: true, consent_wording: MARKETING_CONSENT_WORDING } : {};

/** The link from the donation box to what a gift costs (Fundraising Regulator: fees shown up front). */
export function FeesLink() {
  return (
    <p className="field-hint fees-link">
      No platform fee: see <a href="/fees">what a £10 gift costs and who keeps what</a>.
    </p>
  );
}

/** After a new account signs in with the box ticked: store the consent with source sign_up. */
export async function recordSignUpConsent() {
  await api((o) =>
    client.api.me.consent.$put(
      { json: { consent: true, source: 'sign_up', consent_wording: MARKETING_CONSENT_WORDING } },
      o,
    ),
  );
}
