import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { addressColumns, createdAt, id, updatedAt } from './columns';

export const organizations = sqliteTable(
  'organizations',
  {
    id: id(),
    name: text('name').notNull(),
    /** Stored image Key (R2) of the logo. */
    image: text('image'),
    email: text('email'),
    phone: text('phone'),
    charityNumber: text('charity_number'),
    /** New appeals under this organization's campaigns start as drafts until an admin approves them. */
    appealsNeedApproval: integer('appeals_need_approval', { mode: 'boolean' }).notNull().default(false),
    /** Registered legal name (declarations, receipts); the display name when unset. */
    legalName: text('legal_name'),
    /** Who registers the charity: ccew, oscr or ccni (domain/charity.ts). */
    regulator: text('regulator', { enum: ['ccew', 'oscr', 'ccni'] })
      .notNull()
      .default('ccew'),
    /** HMRC charity reference used for Gift Aid claims (Charities Online). */
    hmrcReference: text('hmrc_reference'),
    /** Last day of the accounting year, MM-DD: Gift Aid's aggregated lines stay inside one period. */
    accountingYearEnd: text('accounting_year_end').notNull().default('04-05'),
    /** Nominal codes for the accounts journal (domain/finance defaults when null). */
    incomeCode: text('income_code'),
    feeCode: text('fee_code'),
    clearingCode: text('clearing_code'),
    bankCode: text('bank_code'),
    ...addressColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /**
     * The donor its tin and bucket collections are recorded under (decision 081), made on first use.
     * Kept here, not found by an address, so no one can make or claim that account from outside.
     */
    collectionsDonorId: text('collections_donor_id'),
  },
  (t) => [index('organizations_name_idx').on(t.name)],
);
