import { and, asc, desc, eq, exists, inArray, or, sql, type SQL } from 'drizzle-orm';
import { campaignOfGift } from '../../../db/gift-joins';
import { chunks } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import {
  campaigns,
  donations,
  organizationAdmins,
  organizationDonors,
  organizations,
  users,
  type UserType,
} from '../../../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors';
import { canAddDonors, canChangeUserType, canManageOrganization, isAdmin } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';
import { imageUrl } from '../campaigns/read';
import { toAccountDto } from './account';
import { BLANK_PROFILE, latestErasures } from './erasure';
import { actorOf, auditInsert, changedFields } from '../audit/append';
import { orgScope, readsFinance } from '../../lib/policy';
import type { DonorDto } from '../../schemas';
import type { ErasureDto } from '../../schemas/consent';
import { type AddressInput, addressColumnsFrom, type Page, toAddressDto } from '../organizations/manage';
import { PAID_DONATION_STATUSES } from '../../../domain/statuses';
import type { AuditedWriteContext, ViewerContext } from '../../lib/service-context';

export type DonorInput = {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone?: string | null;
  image?: string | null;
  type?: UserType;
  address?: AddressInput;
};

const DUPLICATE_EMAIL = 'A donor with this email already exists';

export type UserRow = typeof users.$inferSelect;

/**
 * What an organization admin sees of another user: name and email (to thank and reach them about
 * their gifts, which GET /api/donations lists) and nothing of the profile. Anyone can give £1 to a
 * campaign with someone else's email, so a paid gift must not open that person's phone, address
 * or photo to the campaign's organization.
 */
const limitedDonorDto = (row: UserRow): DonorDto => toDonorDto({ ...row, ...BLANK_PROFILE }, []);

/** The row an organization admin may read (the list and its CSV export): profile fields blanked. */
function visibleRow(viewer: AuthUser, row: UserRow): UserRow {
  if (seesProfile(viewer, row)) return row;
  return { ...row, ...BLANK_PROFILE };
}

/** Admins and the user themself see the whole profile; organization admins the limited view. */
const seesProfile = (viewer: AuthUser, row: UserRow) => isAdmin(viewer) || viewer.id === row.id;

function toDonorDto(row: UserRow, orgIds: string[], erasure: ErasureDto | null = null): DonorDto {
  return {
    ...toAccountDto(row),
    phone: row.phone,
    image: row.avatar,
    image_url: row.avatar ? imageUrl(row.avatar) : null,
    type: row.type,
    address: toAddressDto(row),
    org_ids: orgIds,
    erased_at: row.erasedAt?.toISOString() ?? null,
    erasure,
  };
}

/**
 * True for users who gave (a paid gift, refunded or not) to a campaign of one of these
 * organizations. Pending and failed rows don't count: anyone can create one for any email.
 */
function donatedTo(db: Db, orgIds: string[]): SQL {
  if (!orgIds.length) return sql`0`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(donations)
      .innerJoin(campaigns, campaignOfGift)
      .where(
        and(
          eq(donations.donorId, users.id),
          inArray(donations.status, [...PAID_DONATION_STATUSES]),
          inArray(campaigns.organizationId, orgIds),
        ),
      ),
  );
}

/** True for donors an admin of one of these organizations added by hand (organization_donors). */
function addedTo(db: Db, orgIds: string[]): SQL {
  if (!orgIds.length) return sql`0`;
  return exists(
    db
      .select({ one: sql`1` })
      .from(organizationDonors)
      .where(and(eq(organizationDonors.userId, users.id), inArray(organizationDonors.organizationId, orgIds))),
  );
}

/** Which users a viewer may see: admins all; org_admins and finance the donors of their organizations (who gave, or were added by hand); donors themselves. */
function scopeCondition(db: Db, viewer: AuthUser): SQL | undefined {
  if (!readsFinance(viewer)) return eq(users.id, viewer.id);
  const scope = orgScope(viewer);
  return scope === 'all' ? undefined : or(donatedTo(db, scope), addedTo(db, scope));
}

async function orgIdsByUser(db: Db, userIds: string[]): Promise<Map<string, string[]>> {
  const map = new Map<string, string[]>();
  if (!userIds.length) return map;
  // The donor picker asks for up to 1000 users: one IN list per chunk keeps D1 under its parameter limit.
  const pieces = await Promise.all(
    chunks(userIds).map((ids) =>
      db
        .select({ userId: organizationAdmins.userId, organizationId: organizationAdmins.organizationId })
        .from(organizationAdmins)
        .where(inArray(organizationAdmins.userId, ids)),
    ),
  );
  for (const row of pieces.flat()) map.set(row.userId, [...(map.get(row.userId) ?? []), row.organizationId]);
  return map;
}

export async function listUsers(
  ctx: ViewerContext,
  options: Page & { search?: string; type?: UserType; sort?: 'created' | 'name' | 'email'; order?: 'asc' | 'desc' },
): Promise<{ items: DonorDto[]; total: number }> {
  const { db, viewer } = ctx;
  const { rows, total } = await donorRows(ctx, options);
  const orgIds = await orgIdsByUser(
    db,
    rows.map((r) => r.id),
  );
  // The donor picker lists up to 1000 users: one IN list per chunk keeps D1 under its parameter limit.
  const erasures = new Map(
    (await Promise.all(chunks(rows.map((r) => r.id)).map((ids) => latestErasures(db, ids)))).flatMap((m) => [...m]),
  );
  return {
    items: rows.map((row) =>
      seesProfile(viewer, row)
        ? toDonorDto(row, orgIds.get(row.id) ?? [], erasures.get(row.id) ?? null)
        : limitedDonorDto(row),
    ),
    total,
  };
}

/** Donors in the viewer's scope, filtered and sorted on the server (the list and its CSV export). */
export async function donorRows(
  ctx: ViewerContext,
  options: Page & {
    search?: string;
    type?: UserType;
    sort?: 'created' | 'name' | 'email';
    order?: 'asc' | 'desc';
    count?: boolean;
  },
): Promise<{ rows: UserRow[]; total: number }> {
  const { db, viewer } = ctx;
  const search = options.search?.trim().toLowerCase();
  // instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes ("LIKE or GLOB pattern too complex").
  const where = and(
    scopeCondition(db, viewer),
    options.type ? eq(users.type, options.type) : undefined,
    search
      ? or(
          sql`instr(lower(${users.firstName} || ' ' || ${users.lastName}), ${search}) > 0`,
          sql`instr(lower(${users.email}), ${search}) > 0`,
        )
      : undefined,
  );
  const sort = options.sort ?? 'created';
  const dir = (options.order ?? (sort === 'created' ? 'desc' : 'asc')) === 'asc' ? asc : desc;
  const key = {
    created: users.createdAt,
    name: sql`lower(${users.firstName} || ' ' || ${users.lastName})`,
    email: users.email,
  }[sort];
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(users)
      .where(where)
      .orderBy(dir(key), desc(users.createdAt), desc(users.id))
      .limit(options.limit)
      .offset(options.offset),
    options.count === false
      ? Promise.resolve([{ n: 0 }])
      : db.select({ n: sql<number>`count(*)` }).from(users).where(where),
  ]);
  return { rows: rows.map((row) => visibleRow(viewer, row)), total: Number(count?.n ?? 0) };
}

/** `me` is the signed-in user; anything else a UUID or short id. */
function resolveUserId(idParam: string, viewer: AuthUser): string | null {
  return idParam === 'me' ? viewer.id : parseId(idParam);
}

/** A user the viewer may see (themselves, or within their scope); otherwise 404 'Donor Not Found'. */
async function findVisibleUser(db: Db, idParam: string, viewer: AuthUser): Promise<UserRow> {
  const id = resolveUserId(idParam, viewer);
  if (!id) throw notFound('Donor Not Found');
  const scope = id === viewer.id ? undefined : (scopeCondition(db, viewer) ?? undefined);
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), scope))
    .limit(1);
  if (!row) throw notFound('Donor Not Found');
  return row;
}

export async function getUser(ctx: ViewerContext, idParam: string): Promise<DonorDto> {
  const { db, viewer } = ctx;
  const row = await findVisibleUser(db, idParam, viewer);
  return seesProfile(viewer, row) ? withOrgIds(db, row) : limitedDonorDto(row);
}

async function withOrgIds(db: Db, row: UserRow): Promise<DonorDto> {
  const orgIds = await orgIdsByUser(db, [row.id]);
  const erasures = await latestErasures(db, [row.id]);
  return toDonorDto(row, orgIds.get(row.id) ?? [], erasures.get(row.id) ?? null);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (/UNIQUE constraint failed/i.test(String((e as Error).message ?? e))) return true;
  }
  return false;
}

function userColumns(input: DonorInput) {
  return {
    ...(input.first_name !== undefined && { firstName: input.first_name }),
    ...(input.last_name !== undefined && { lastName: input.last_name }),
    ...(input.phone !== undefined && { phone: input.phone }),
    ...(input.image !== undefined && { avatar: input.image }),
    ...(input.type !== undefined && { type: input.type }),
    ...addressColumnsFrom(input.address),
  };
}

const hasValue = (value: unknown): boolean =>
  value !== undefined &&
  value !== null &&
  value !== '' &&
  (typeof value !== 'object' || Object.values(value).some(hasValue));

/** What an organization admin may send when adding a donor: the same as what it may read back. */
const ORG_ADMIN_FIELDS = new Set(['first_name', 'last_name', 'email', 'organization_id']);

/**
 * The organization a new donor is added to: an admin may name any (or none); an organization
 * admin one of its own, which may be left out when it has only one.
 */
async function organizationForNewDonor(
  db: Db,
  viewer: AuthUser,
  organizationId: string | undefined,
): Promise<string | null> {
  if (!canAddDonors(viewer)) throw forbidden('Only admins and organization admins can add donors');
  let id: string | null = null;
  if (organizationId) {
    id = parseId(organizationId);
    if (!id || !canManageOrganization(viewer, id)) {
      if (!isAdmin(viewer)) throw forbidden('You can add donors only to organizations you administer');
      throw badRequest('organization_id: no organization with this id');
    }
  } else if (!isAdmin(viewer)) {
    if (viewer.orgIds.length > 1)
      throw badRequest('organization_id: choose which of your organizations this donor belongs to');
    id = viewer.orgIds[0];
  }
  if (!id) return null;
  const [row] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, id)).limit(1);
  if (!row) throw badRequest('organization_id: no organization with this id');
  return row.id;
}

/**
 * Adds a donor: admins with any details (and optionally an organization); organization admins a
 * name and email for their own organization, linked to it in organization_donors so it appears in
 * their donor list before the first gift.
 */
export async function createUser(
  ctx: AuditedWriteContext,
  input: DonorInput & { first_name: string; last_name: string; email: string; organization_id?: string },
): Promise<DonorDto> {
  const { db, viewer, requestId } = ctx;
  if (!isAdmin(viewer)) {
    const extra = Object.entries(input).filter(([key, value]) => !ORG_ADMIN_FIELDS.has(key) && hasValue(value));
    if (extra.some(([key, value]) => key === 'type' && value !== 'donor'))
      throw forbidden('Only admins can choose a user type');
    if (extra.some(([key]) => key !== 'type')) {
      throw forbidden(
        `Organization admins add a donor's name and email only; leave out ${extra.map(([key]) => key).join(', ')}`,
      );
    }
  }
  const organizationId = await organizationForNewDonor(db, viewer, input.organization_id);
  const email = input.email.toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  if (existing) throw new HttpError(409, DUPLICATE_EMAIL);
  const id = crypto.randomUUID();
  const insertUser = db
    .insert(users)
    .values({
      ...userColumns({ ...input, type: isAdmin(viewer) ? input.type : undefined }),
      id,
      email,
      firstName: input.first_name,
      lastName: input.last_name,
    })
    .returning();
  // Staff adding a person is a change to the organization's records: audited in the same batch.
  const audit = auditInsert(db, actorOf(viewer, requestId), {
    action: 'user.create',
    targetType: 'user',
    targetId: id,
    organizationId,
    changes: {
      email: [null, email],
      name: [null, `${input.first_name} ${input.last_name}`.trim()],
      type: [null, (isAdmin(viewer) ? input.type : undefined) ?? 'donor'],
    },
  });
  let row: UserRow;
  try {
    const link = organizationId
      ? [db.insert(organizationDonors).values({ organizationId, userId: id, addedBy: viewer.id })]
      : [];
    [[row]] = await db.batch([insertUser, ...link, audit]);
  } catch (error) {
    // Two requests racing for one address: the unique index decides, the loser gets the same 409.
    if (isUniqueViolation(error)) throw new HttpError(409, DUPLICATE_EMAIL);
    throw error;
  }
  return seesProfile(viewer, row) ? toDonorDto(row, []) : limitedDonorDto(row);
}

export async function updateUser(ctx: AuditedWriteContext, idParam: string, input: DonorInput): Promise<DonorDto> {
  const { db, viewer, requestId } = ctx;
  const row = await findVisibleUser(db, idParam, viewer);
  const self = row.id === viewer.id;
  if (!self && !isAdmin(viewer)) throw forbidden('Organization admins can view their donors but not edit them');
  if (input.email !== undefined && input.email.toLowerCase() !== row.email) throw badRequest('Email cannot be changed');
  if (input.type !== undefined && input.type !== row.type) {
    if (!canChangeUserType(viewer)) throw forbidden('Only admins can change a user type');
    // Keeps at least the acting admin in charge: nobody locks themselves out by accident.
    if (self) throw badRequest('You cannot change your own type; ask another admin');
  }
  const columns = userColumns({ ...input, type: undefined });
  if (input.type !== undefined && input.type !== row.type) Object.assign(columns, { type: input.type });
  if (!Object.keys(columns).length) return withOrgIds(db, row);
  const changes = changedFields(row as Record<string, unknown>, columns);
  // A donor's own profile edits are theirs; staff edits and every type change are audited.
  if (!Object.keys(changes).length || (self && !('type' in changes))) {
    const [updated] = await db.update(users).set(columns).where(eq(users.id, row.id)).returning();
    return withOrgIds(db, updated);
  }
  const action = 'type' in changes ? 'user.type' : 'user.update';
  const [[updated]] = await db.batch([
    db.update(users).set(columns).where(eq(users.id, row.id)).returning(),
    auditInsert(db, actorOf(viewer, requestId), { action, targetType: 'user', targetId: row.id, changes }),
  ]);
  return withOrgIds(db, updated);
}
