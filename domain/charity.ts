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
