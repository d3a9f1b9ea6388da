import {
  type AnySQLiteColumn,
  index,
  integer,
  primaryKey,
  type ReferenceConfig,
  sqliteTable,
  text,
  uniqueIndex,
} from 'drizzle-orm/sqlite-core';
import { addressColumns, createdAt, id, updatedAt } from './columns';
import { organizations } from './organizations';

import { CONSENT_SOURCES, ERASURE_OUTCOMES } from '../../domain/privacy';
import { USER_TYPES } from '../../domain/statuses';

export { USER_TYPES, type UserType } from '../../domain/statuses';

/**
 * How a user row came to be: `checkout` when an anonymous donation created it (it becomes `account`
 * once the person signs in), `account` otherwise. Housekeeping expires checkout users whose every
 * gift was abandoned (docs/decisions/014).
 */
export const USER_ORIGINS = ['account', 'checkout'] as const;

export const users = sqliteTable(
  'users',
  {
    id: id(),
    /** Stored lower-cased; the unique index makes sign-in and donor look-up by email exact. */
    email: text('email').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    type: text('type', { enum: USER_TYPES }).notNull().default('donor'),
    avatar: text('avatar'),
    phone: text('phone'),
    ...addressColumns(),
    stripeCustomerId: text('stripe_customer_id'),
    origin: text('origin', { enum: USER_ORIGINS }).notNull().default('account'),
    /** Set when the donor's account was erased: name and contact details are blank from then on. */
    erasedAt: integer('erased_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    index('users_type_idx').on(t.type),
    index('users_name_idx').on(t.firstName, t.lastName),
  ],
);

/** A column holding a user's id, with its foreign key to users (`onDelete` where the table needs one). */
export const userRef = (name: string, actions?: ReferenceConfig['actions']) =>
  text(name).references((): AnySQLiteColumn => users.id, actions);

/** The two ends of an organization-user link; deleting either end deletes the link. */
const organizationAndUser = () => ({
  organizationId: text('organization_id')
    .notNull()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  userId: text('user_id')
    .notNull()
    .references((): AnySQLiteColumn => users.id, { onDelete: 'cascade' }),
});

/** users.org_ids and organizations.admins are the two ends of this one relation. */
export const organizationAdmins = sqliteTable(
  'organization_admins',
  {
    ...organizationAndUser(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index('organization_admins_user_idx').on(t.userId)],
);

/**
 * Donors an organization's admins added by hand (a supporter who has not given online yet). With
 * paid gifts to its campaigns, this is what puts a donor in an organization's donor list.
 */
export const organizationDonors = sqliteTable(
  'organization_donors',
  {
    ...organizationAndUser(),
    addedBy: text('added_by').references((): AnySQLiteColumn => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.userId] }), index('organization_donors_user_idx').on(t.userId)],
);

export const sessions = sqliteTable(
  'sessions',
  {
    id: id(),
    /** SHA-256 of the bearer token (256 random bits); the token itself is never stored. */
    tokenHash: text('token_hash').notNull(),
    userId: userRef('user_id', { onDelete: 'cascade' }).notNull(),
    createdAt: createdAt(),
    lastSeenAt: integer('last_seen_at', { mode: 'timestamp_ms' }).notNull(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_unique').on(t.tokenHash),
    index('sessions_user_idx').on(t.userId),
    index('sessions_expires_idx').on(t.expiresAt),
  ],
);

export const loginCodes = sqliteTable(
  'login_codes',
  {
    id: id(),
    email: text('email').notNull(),
    /** HMAC of the 6-digit code keyed with a server secret. */
    codeHash: text('code_hash').notNull(),
    /** Wrong guesses from the address that requested it; other addresses' guesses are counted apart. */
    attempts: integer('attempts').notNull().default(0),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    consumedAt: integer('consumed_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    /** The client address that asked for it ('unknown' off Cloudflare). */
    requestedIp: text('requested_ip'),
  },
  (t) => [index('login_codes_email_idx').on(t.email, t.createdAt), index('login_codes_expires_idx').on(t.expiresAt)],
);

/**
 * Fixed-window counters for throttles and quotas, keyed like 'send:ip:1.2.3.4' (count is hits, or
 * bytes for the upload quota). Backoff keys reuse window_start as the time of the last failure.
 */
export const rateLimits = sqliteTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    windowStart: integer('window_start', { mode: 'timestamp_ms' }).notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [index('rate_limits_window_idx').on(t.windowStart)],
);

/** "Keep me updated by email": the exact wording, when and where; withdrawing keeps the history. */
export const marketingConsents = sqliteTable(
  'marketing_consents',
  {
    id: id(),
    userId: userRef('user_id'),
    /** Blanked on erasure. */
    email: text('email'),
    wording: text('wording').notNull(),
    source: text('source', { enum: CONSENT_SOURCES }).notNull(),
    givenAt: integer('given_at', { mode: 'timestamp_ms' }).notNull(),
    withdrawnAt: integer('withdrawn_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('marketing_consents_user_idx').on(t.userId, t.givenAt),
    index('marketing_consents_given_idx').on(t.withdrawnAt, t.givenAt),
  ],
);

/** A donor's request to delete their account: confirmed by an emailed code, outcome kept for admins. */
export const erasureRequests = sqliteTable(
  'erasure_requests',
  {
    id: id(),
    userId: userRef('user_id').notNull(),
    codeHash: text('code_hash').notNull(),
    attempts: integer('attempts').notNull().default(0),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
    requestedAt: integer('requested_at', { mode: 'timestamp_ms' }).notNull(),
    completedAt: integer('completed_at', { mode: 'timestamp_ms' }),
    outcome: text('outcome', { enum: ERASURE_OUTCOMES }).notNull().default('pending'),
    /** What was done or why not, for the admin's donor list. */
    detail: text('detail'),
  },
  (t) => [index('erasure_requests_user_idx').on(t.userId, t.requestedAt)],
);
