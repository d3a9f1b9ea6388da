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
    regulator: text('regulator', { enum: ['ccew', 'oscr', 'ccni'] }).notNull().default('ccew'),
    /** HMRC charity reference used for Gift Aid claims (Charities Online). */
    hmrcReference: text('hmrc_reference'),
    ...addressColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('organizations_name_idx').on(t.name)],
);
