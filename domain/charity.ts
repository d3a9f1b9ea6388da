/**
 * Who receives a gift. Each organization names its own legal identity and regulator; the
 * deployment's CHARITY_* settings describe the platform's own charity and fill the gaps.
 */
export const CHARITY_REGULATORS = {
  ccew: 'Charity Commission for England and Wales',
  oscr: 'Office of the Scottish Charity Regulator',
  ccni: 'Charity Commission for Northern Ireland',
} as const;
export type CharityRegulator = keyof typeof CHARITY_REGULATORS;
export const CHARITY_REGULATOR_IDS = Object.keys(CHARITY_REGULATORS) as CharityRegulator[];

export type CharityIdentity = {
  /** The name donors know ("Wells for Hope"). */
  name: string;
  /** The registered legal name, used in declarations and receipts. */
  legalName: string;
  /** Registered charity number; null when the organization has none on record. */
  number: string | null;
  regulator: CharityRegulator;
  /** One-line postal address for receipts and statements. */
  address: string | null;
};

/** "Registered charity number 1234567 (Charity Commission for England and Wales)". */
export function registrationLine(charity: Pick<CharityIdentity, 'number' | 'regulator'>): string | null {
  if (!charity.number) return null;
  const prefix = charity.regulator === 'oscr' ? 'Scottish charity number' : 'Registered charity number';
  return `${prefix} ${charity.number} (${CHARITY_REGULATORS[charity.regulator]})`;
}

/**
 * The shape each regulator gives its numbers: CCEW 6-8 digits (a linked charity adds "-1"),
 * OSCR "SC" and 6 digits, CCNI "NIC" and 6 digits (older "XN"/"XR" HMRC-style references pass).
 * Returns a message naming the problem, or null when the number fits its regulator.
 */
export function charityNumberProblem(number: string, regulator: CharityRegulator): string | null {
  const value = number.trim().toUpperCase();
  if (regulator === 'oscr')
    return /^SC\d{6}$/.test(value) ? null : 'A Scottish charity number is SC and 6 digits, like SC012345';
  if (regulator === 'ccni')
    return /^(NIC\d{6}|X[NR]\d{4,6})$/.test(value)
      ? null
      : 'A Northern Ireland charity number is NIC and 6 digits, like NIC100001';
  return /^\d{6,8}(-\d{1,3})?$/.test(value)
    ? null
    : 'A Charity Commission number is 6 to 8 digits, like 1234567 (a linked charity adds -1)';
}

/** HMRC's charity reference for Gift Aid claims: letters and digits, like AB12345 or X1234. */
export function hmrcReferenceProblem(reference: string): string | null {
  return /^[A-Z]{1,3}\d{3,6}$/.test(reference.trim().toUpperCase())
    ? null
    : 'An HMRC charity reference is letters then digits, like AB12345';
}

/** The regulator a number's shape points to (SC…: OSCR, NIC…: CCNI), or null when it does not say. */
export function regulatorFromNumber(number: string): CharityRegulator | null {
  const value = number.trim().toUpperCase();
  if (value.startsWith('SC')) return 'oscr';
  if (value.startsWith('NIC')) return 'ccni';
  return null;
}
