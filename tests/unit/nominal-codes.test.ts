import { describe, expect, it } from 'vitest';
import { DEFAULT_NOMINAL_CODES, journalCodesOf, nominalCodeOf, nominalCodeProblem } from '../../domain/finance';
import { setsAnyNominalCodes, setsNominalCodes } from '../../domain/roles';

describe('nominalCodeProblem: the one rule for an accounts journal code', () => {
  it("takes Sage's digits and Xero's letters, digits, '-' and '.', up to 10 characters", () => {
    for (const code of ['4000', '200', 'STRIPE-1', '1215.1', 'abcdefghij', ' 4010 '])
      expect(nominalCodeProblem(code)).toBeNull();
  });

  it('takes empty as "use the default", stored as null', () => {
    expect(nominalCodeProblem('')).toBeNull();
    expect(nominalCodeProblem('   ')).toBeNull();
    expect(nominalCodeOf('  ')).toBeNull();
    expect(nominalCodeOf(null)).toBeNull();
    expect(nominalCodeOf(' 4010 ')).toBe('4010');
  });

  it('refuses long codes, spaces, and anything a spreadsheet could read as a formula', () => {
    expect(nominalCodeProblem('ABCDEFGHIJK')).toMatch(/at most 10 characters/);
    for (const code of ['40 00', '=1+1', '+4000', '-4000', '@SUM', '4000;', "'4000"])
      expect(nominalCodeProblem(code), code).toMatch(/letters, digits/);
  });
});

describe('setsNominalCodes: who owns the chart of accounts', () => {
  const org = 'org-1';
  it("is admins, the organization's admins and its finance users", () => {
    expect(setsNominalCodes({ type: 'admin', orgIds: [] }, org)).toBe(true);
    expect(setsNominalCodes({ type: 'org_admin', orgIds: [org] }, org)).toBe(true);
    expect(setsNominalCodes({ type: 'finance', orgIds: [org] }, org)).toBe(true);
  });

  it("is never a donor, or another organization's staff", () => {
    expect(setsNominalCodes({ type: 'donor', orgIds: [org] }, org)).toBe(false);
    expect(setsNominalCodes({ type: 'finance', orgIds: ['org-2'] }, org)).toBe(false);
    expect(setsNominalCodes({ type: 'org_admin', orgIds: ['org-2'] }, org)).toBe(false);
    expect(setsNominalCodes({ type: 'finance', orgIds: [org] }, null)).toBe(false);
    expect(setsNominalCodes(null, org)).toBe(false);
    expect(setsAnyNominalCodes({ type: 'donor', orgIds: [] })).toBe(false);
    expect(setsAnyNominalCodes({ type: 'finance', orgIds: [] })).toBe(true);
  });
});

describe('journalCodesOf: what the journal screen says the export posts to', () => {
  it("is the organization's codes, each unset one its default", () => {
    expect(journalCodesOf({ income_code: '200', fee_code: null, clearing_code: '', bank_code: '1215' })).toEqual({
      income_code: '200',
      fee_code: DEFAULT_NOMINAL_CODES.fees,
      clearing_code: DEFAULT_NOMINAL_CODES.clearing,
      bank_code: '1215',
    });
    expect(journalCodesOf(null).income_code).toBe(
      `${DEFAULT_NOMINAL_CODES.restrictedIncome} / ${DEFAULT_NOMINAL_CODES.unrestrictedIncome}`,
    );
  });
});
