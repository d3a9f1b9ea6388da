import { index, sqliteTable, text } from 'drizzle-orm/sqlite-core';
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
    ...addressColumns(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('organizations_name_idx').on(t.name)],
);
