import { useState } from 'react';
import { checkGiftAidDetails, type GiftAidDetailsInput, GIFT_AID_LIMITS, withGiftAid } from '../../../domain';
import { formatPence } from '../../lib/format';
import { TextField } from './TextField';
import '../../styles/donation.css';

/** What the donor types; the server checks it again with the same rule (domain/gift-aid.ts). */
export type GiftAidValue = {
  title: string;
  first_name: string;
  last_name: string;
  house: string;
  address: string;
  postcode: string;
};

export const EMPTY_GIFT_AID: GiftAidValue = {
  title: '',
  first_name: '',
  last_name: '',
  house: '',
  address: '',
  postcode: '',
};

type Field = keyof GiftAidValue;

export function giftAidErrors(value: GiftAidValue): Partial<Record<Field, string>> {
  const result = checkGiftAidDetails(value as GiftAidDetailsInput);
  if (result.ok) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const problem of result.problems) {
    const message = problem.message.replace(/^[a-z_]+: /, '');
    errors[problem.field as Field] ??= message.charAt(0).toUpperCase() + message.slice(1);
  }
  return errors;
}

export function giftAidReady(value: GiftAidValue): boolean {
  return checkGiftAidDetails(value as GiftAidDetailsInput).ok;
}

/** "Your £10.00 becomes £12.50 for the charity with Gift Aid": the worth of the gift the box holds. */
export function GiftAidWorth({ pence, monthly }: { pence: number | null; monthly: boolean }) {
  if (!pence) return null;
  return (
    <p className="gift-aid-worth" data-testid="gift-aid-worth">
      Your {formatPence(pence)}
      {monthly ? ' a month' : ''} becomes <strong>{formatPence(withGiftAid(pence))}</strong> for the charity with Gift
      Aid.
    </p>
  );
}

const FIELDS: {
  field: Field;
  label: string;
  autoComplete: string;
  max: number;
  optional?: boolean;
  narrow?: boolean;
}[] = [
  {
    field: 'title',
    label: 'Title',
    autoComplete: 'honorific-prefix',
    max: GIFT_AID_LIMITS.titleMax,
    optional: true,
    narrow: true,
  },
  { field: 'first_name', label: 'First name', autoComplete: 'given-name', max: GIFT_AID_LIMITS.nameMax },
  { field: 'last_name', label: 'Last name', autoComplete: 'family-name', max: GIFT_AID_LIMITS.nameMax },
  { field: 'house', label: 'House name or number', autoComplete: 'address-line1', max: GIFT_AID_LIMITS.houseMax },
  {
    field: 'address',
    label: 'Street and town',
    autoComplete: 'address-line2',
    max: GIFT_AID_LIMITS.addressMax,
    optional: true,
  },
  { field: 'postcode', label: 'Postcode', autoComplete: 'postal-code', max: 10 },
];

/**
 * The details HMRC's Gift Aid schedule needs, with the declaration wording beside them. Errors
 * show once a field has been left, so typing is not interrupted.
 */
export function GiftAidFields({
  value,
  onChange,
  declaration,
  idPrefix,
  donating = false,
  showErrors = false,
}: {
  value: GiftAidValue;
  onChange: (value: GiftAidValue) => void;
  declaration: string;
  idPrefix: string;
  /** In the donation box: the gift confirms the declaration (elsewhere the form corrects one already made). */
  donating?: boolean;
  /** Show every field's problem, touched or not (the donor pressed Donate). */
  showErrors?: boolean;
}) {
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const errors = giftAidErrors(value);
  return (
    <div className="gift-aid-details">
      <div className="gift-aid-grid">
        {FIELDS.map(({ field, label, autoComplete, max, optional, narrow }) => {
          const id = `${idPrefix}-ga-${field}`;
          return (
            <TextField
              key={field}
              id={id}
              label={
                <>
                  {label}
                  {optional ? <span className="optional"> (optional)</span> : null}
                </>
              }
              narrow={narrow}
              name={field}
              autoComplete={autoComplete}
              maxLength={max + 5}
              value={value[field]}
              onChange={(e) => onChange({ ...value, [field]: e.target.value })}
              onBlur={() => setTouched((t) => ({ ...t, [field]: true }))}
              error={touched[field] || showErrors ? errors[field] : undefined}
            />
          );
        })}
      </div>
      <p className="declaration">
        <strong>Gift Aid declaration.</strong> {declaration}
      </p>
      {donating && (
        <p className="field-hint">
          By donating with Gift Aid ticked you confirm this declaration. It covers this gift and your gifts to this
          charity in the past 4 years and from now on, until you cancel it in My Info.
        </p>
      )}
    </div>
  );
}
