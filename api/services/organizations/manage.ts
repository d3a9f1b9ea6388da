import { and, asc, desc, eq, inArray, notExists, sql, type SQL } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import { chunks, rowsPerStatement } from '../../../db/chunks';
import type { Db } from '../../../db/client';
import { parseId } from '../../../domain/ids';
import { organizationAdmins, organizations, users } from '../../../db/schema';
import { badRequest, forbidden, HttpError, notFound } from '../../lib/errors';
import {
  canChangeOrganizationAdmins,
  canManageOrganization,
  inOrgScope,
  orgScope,
  readsFinance,
  setsNominalCodes,
} from '../../lib/policy';
import { ORGANIZATION_NOMINAL_CODE_FIELDS } from '../../../domain/finance';
import type { AuthUser } from '../../lib/types';
import { type CharityRegulator, charityNumberProblem, regulatorFromNumber } from '../../../domain';
import { actorOf, type AuditActor, auditInsert, changedFields } from '../audit/append';
import { imageUrl } from '../campaigns/read';
import type { AddressDto, OrganizationDto } from '../../schemas';
import type { AuditedWriteContext, ViewerContext } from '../../lib/service-context';

/** A multi-select option: what the dashboard's selects hold and send back. */
export type Option = { label: string; value: string };

export type AddressInput = Partial<AddressDto>;

export type OrganizationInput = {
  name?: string;
  image?: string | null;
  email?: string | null;
  phone?: string | null;
  charity_number?: string | null;
  legal_name?: string | null;
  regulator?: CharityRegulator;
  hmrc_reference?: string | null;
  accounting_year_end?: string;
  address?: AddressInput;
  appeals_need_approval?: boolean;
  /** User ids. */
  admins?: string[];
  /** Accounts journal nominal codes; null clears one back to its default (domain/finance.ts). */
  income_code?: string | null;
  fee_code?: string | null;
  clearing_code?: string | null;
  bank_code?: string | null;
};

type AddressRow = {
  address: string | null;
  city: string | null;
  province: string | null;
  postalCode: string | null;
  country: string | null;
};

export const toAddressDto = (row: AddressRow): AddressDto => ({
  address: row.address,
  city: row.city,
  province: row.province,
  postal_code: row.postalCode,
  country: row.country,
});

/** Only the address keys that were sent, as column values (omitted keys stay unchanged). */
export function addressColumnsFrom(address: AddressInput | undefined): Partial<AddressRow> {
  if (!address) return {};
  const out: Partial<AddressRow> = {};
  if (address.address !== undefined) out.address = address.address;
  if (address.city !== undefined) out.city = address.city;
  if (address.province !== undefined) out.province = address.province;
  if (address.postal_code !== undefined) out.postalCode = address.postal_code;
  if (address.country !== undefined) out.country = address.country;
  return out;
}

/** "First Last (email)", the label of a user in the admins multi-select. */
export function userOptionLabel(u: { firstName: string; lastName: string; email: string }): string {
  const name = `${u.firstName} ${u.lastName}`.trim();
  return name ? `${name} (${u.email})` : u.email;
}

/** org_admins act only inside the organizations they are linked to; admins everywhere (api/lib/policy.ts). */
export { canManageOrganization };

/** The organizations a staff viewer may see, as a condition on organizations.id. */
function scopeCondition(viewer: AuthUser): SQL | undefined {
  if (!readsFinance(viewer)) return sql`0`;
  const scope = orgScope(viewer);
  if (scope === 'all') return undefined;
  return scope.length ? inArray(organizations.id, scope) : sql`0`;
}

async function adminsByOrganization(db: Db, organizationIds: string[]): Promise<Map<string, Option[]>> {
  const map = new Map<string, Option[]>();
  if (!organizationIds.length) return map;
  const pieces = await Promise.all(
    chunks(organizationIds).map((ids) =>
      db
        .select({
          organizationId: organizationAdmins.organizationId,
          id: users.id,
          email: users.email,
          firstName: users.firstName,
          lastName: users.lastName,
        })
        .from(organizationAdmins)
        .innerJoin(users, eq(users.id, organizationAdmins.userId))
        .where(inArray(organizationAdmins.organizationId, ids))
        .orderBy(asc(users.firstName), asc(users.lastName), asc(users.id)),
    ),
  );
  for (const row of pieces.flat()) {
    const list = map.get(row.organizationId) ?? [];
    list.push({ label: userOptionLabel(row), value: row.id });
    map.set(row.organizationId, list);
  }
  return map;
}

function toOrganizationDto(row: typeof organizations.$inferSelect, admins: Option[]): OrganizationDto {
  return {
    _id: row.id,
    name: row.name,
    image: row.image,
    image_url: row.image ? imageUrl(row.image) : null,
    email: row.email,
    phone: row.phone,
    charity_number: row.charityNumber,
    legal_name: row.legalName,
    regulator: row.regulator,
    hmrc_reference: row.hmrcReference,
    accounting_year_end: row.accountingYearEnd,
    address: toAddressDto(row),
    admins,
    appeals_need_approval: row.appealsNeedApproval,
    income_code: row.incomeCode,
    fee_code: row.feeCode,
    clearing_code: row.clearingCode,
    bank_code: row.bankCode,
  };
}

export type Page = { limit: number; offset: number };

export async function listOrganizations(
  ctx: ViewerContext,
  options: OrganizationListOptions,
): Promise<{ items: OrganizationDto[]; total: number }> {
  const { rows, total } = await organizationRows(ctx, options);
  const admins = await adminsByOrganization(
    ctx.db,
    rows.map((r) => r.id),
  );
  return { items: rows.map((row) => toOrganizationDto(row, admins.get(row.id) ?? [])), total };
}

type OrganizationListOptions = Page & {
  search?: string;
  sort?: 'name' | 'created';
  order?: 'asc' | 'desc';
  count?: boolean;
};

/** Organizations in the viewer's scope, filtered and sorted on the server (the list and its CSV export). */
export async function organizationRows(
  ctx: ViewerContext,
  options: OrganizationListOptions,
): Promise<{ rows: (typeof organizations.$inferSelect)[]; total: number }> {
  const { db, viewer } = ctx;
  const search = options.search?.trim().toLowerCase();
  const where = and(
    scopeCondition(viewer),
    // instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes ("LIKE or GLOB pattern too complex").
    search ? sql`instr(lower(${organizations.name}), ${search}) > 0` : undefined,
  );
  const sort = options.sort ?? 'name';
  const dir = (options.order ?? (sort === 'name' ? 'asc' : 'desc')) === 'asc' ? asc : desc;
  const key = sort === 'name' ? sql`lower(${organizations.name})` : organizations.createdAt;
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(organizations)
      .where(where)
      .orderBy(dir(key), asc(organizations.name), asc(organizations.id))
      .limit(options.limit)
      .offset(options.offset),
    options.count === false
      ? Promise.resolve([{ n: 0 }])
      : db.select({ n: sql<number>`count(*)` }).from(organizations).where(where),
  ]);
  return { rows, total: Number(count?.n ?? 0) };
}

/** One organization the viewer may see; unknown, malformed and out-of-scope ids are all 404. */
export async function getOrganization(ctx: ViewerContext, idParam: string): Promise<OrganizationDto> {
  const { db, viewer } = ctx;
  const id = parseId(idParam);
  const organization = id && readsFinance(viewer) && inOrgScope(viewer, id) ? await loadOrganization(db, id) : null;
  if (!organization) throw notFound('Organization Not Found');
  return organization;
}

async function loadOrganization(db: Db, id: string): Promise<OrganizationDto | null> {
  const [row] = await db.select().from(organizations).where(eq(organizations.id, id)).limit(1);
  if (!row) return null;
  const admins = await adminsByOrganization(db, [id]);
  return toOrganizationDto(row, admins.get(id) ?? []);
}

/** Parses and checks admin user ids: every one must be an existing user. */
async function resolveAdminIds(db: Db, raw: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const value of raw) {
    const id = parseId(value);
    if (!id) throw badRequest(`admins: "${value.slice(0, 40)}" is not a user id`);
    if (!ids.includes(id)) ids.push(id);
  }
  if (!ids.length) return ids;
  const found = await db.select({ id: users.id }).from(users).where(inArray(users.id, ids));
  const known = new Set(found.map((u) => u.id));
  const missing = ids.find((id) => !known.has(id));
  if (missing) throw badRequest(`admins: no user with id ${missing}`);
  return ids;
}

function organizationColumns(input: OrganizationInput) {
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.image !== undefined && { image: input.image }),
    ...(input.email !== undefined && { email: input.email }),
    ...(input.phone !== undefined && { phone: input.phone }),
    ...(input.charity_number !== undefined && { charityNumber: input.charity_number?.toUpperCase() ?? null }),
    ...(input.legal_name !== undefined && { legalName: input.legal_name }),
    ...(input.regulator !== undefined && { regulator: input.regulator }),
    ...(input.hmrc_reference !== undefined && { hmrcReference: input.hmrc_reference?.toUpperCase() ?? null }),
    ...(input.appeals_need_approval !== undefined && { appealsNeedApproval: input.appeals_need_approval }),
    ...(input.accounting_year_end !== undefined && { accountingYearEnd: input.accounting_year_end }),
    ...addressColumnsFrom(input.address),
    ...(input.income_code !== undefined && { incomeCode: input.income_code }),
    ...(input.fee_code !== undefined && { feeCode: input.fee_code }),
    ...(input.clearing_code !== undefined && { clearingCode: input.clearing_code }),
    ...(input.bank_code !== undefined && { bankCode: input.bank_code }),
  };
}

/**
 * Who may change what in an organization: its admins (and admins) everything they may manage;
 * its finance users only the accounts journal's nominal codes, which they own with the chart of
 * accounts. Anyone else, or a finance user sending any other field, is refused with a 403 before
 * anything is stored (an image included).
 */
export function checkOrganizationEdit(viewer: AuthUser, organizationId: string, input: OrganizationInput) {
  if (canManageOrganization(viewer, organizationId)) return;
  if (!setsNominalCodes(viewer, organizationId))
    throw forbidden('Only admins and organization admins can manage organizations');
  const others = Object.entries(input)
    .filter(([key, value]) => value !== undefined && !(ORGANIZATION_NOMINAL_CODE_FIELDS as string[]).includes(key))
    .map(([key]) => key);
  if (others.length)
    throw forbidden(
      `Finance users can change only the accounts journal codes (${ORGANIZATION_NOMINAL_CODE_FIELDS.join(', ')}), not ${others.join(', ')}`,
    );
}

/** Donors linked as admins become org_admins; admins keep their wider type. */
const promoteToOrgAdmin = (db: Db, userIds: string[]) =>
  db
    .update(users)
    .set({ type: 'org_admin' })
    .where(and(inArray(users.id, userIds), eq(users.type, 'donor')));

/** An org_admin left with no organization goes back to being a donor, so no empty scope lingers. */
const demoteOrphanedOrgAdmins = (db: Db, userIds: string[]) =>
  db
    .update(users)
    .set({ type: 'donor' })
    .where(
      and(
        inArray(users.id, userIds),
        eq(users.type, 'org_admin'),
        notExists(db.select({ one: sql`1` }).from(organizationAdmins).where(eq(organizationAdmins.userId, users.id))),
      ),
    );

/** Admin links as multi-row inserts of at most 90 bound values each (3 per row), for one db.batch. */
const insertAdminLinks = (db: Db, organizationId: string, userIds: string[]) =>
  chunks(userIds, rowsPerStatement(3)).map((ids) =>
    db
      .insert(organizationAdmins)
      .values(ids.map((userId) => ({ organizationId, userId })))
      .onConflictDoNothing(),
  );

/**
 * The charity number must fit its regulator, whichever of the two this save changes. A new number
 * sent without a regulator takes the one its shape names (SC…: OSCR, NIC…: CCNI); returns the input
 * with that regulator filled in.
 */
function checkCharityIdentity<T extends OrganizationInput>(
  input: T,
  current?: Pick<OrganizationDto, 'charity_number' | 'regulator'>,
): T {
  if (input.regulator === undefined && input.charity_number) {
    const implied = regulatorFromNumber(input.charity_number);
    if (implied) input = { ...input, regulator: implied };
  }
  const number = input.charity_number !== undefined ? input.charity_number : (current?.charity_number ?? null);
  const regulator = input.regulator ?? current?.regulator ?? 'ccew';
  if (number && (input.charity_number !== undefined || input.regulator !== undefined)) {
    const problem = charityNumberProblem(number, regulator);
    if (problem) throw badRequest(`charity_number: ${problem}`);
  }
  return input;
}

/**
 * Two organizations of one name cannot be told apart in the pickers and lists (a double-clicked
 * Save made two): a name another organization has, in any case and spacing, is a 409.
 */
async function refuseTakenName(db: Db, name: string, exceptId: string | null = null) {
  const [taken] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(
      and(
        sql`lower(trim(${organizations.name})) = lower(trim(${name}))`,
        exceptId ? sql`${organizations.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  if (taken)
    throw new HttpError(409, `name: an organization called "${name.trim()}" already exists; choose another name`);
}

export async function createOrganization(
  db: Db,
  input: OrganizationInput & { name: string },
  actor: AuditActor = actorOf(null),
): Promise<OrganizationDto> {
  input = checkCharityIdentity(input);
  await refuseTakenName(db, input.name);
  const adminIds = await resolveAdminIds(db, input.admins ?? []);
  const id = crypto.randomUUID();
  const columns = { ...organizationColumns(input), name: input.name };
  const insertOrg = db.insert(organizations).values({ id, ...columns });
  const audit = auditInsert(db, actor, {
    action: 'organization.create',
    targetType: 'organization',
    targetId: id,
    organizationId: id,
    changes: changedFields({}, { ...columns, admins: adminIds }),
  });
  // One batch: the organization, its admin links, the promotions and the audit row land together or not at all.
  await db.batch([
    insertOrg,
    ...(adminIds.length ? [...insertAdminLinks(db, id, adminIds), promoteToOrgAdmin(db, adminIds)] : []),
    audit,
  ]);
  return (await loadOrganization(db, id))!;
}

export async function updateOrganization(
  ctx: AuditedWriteContext,
  idParam: string,
  input: OrganizationInput,
): Promise<OrganizationDto> {
  const { db, viewer, requestId } = ctx;
  const current = await getOrganization(ctx, idParam);
  checkOrganizationEdit(viewer, current._id, input);
  input = checkCharityIdentity(input, current);
  const id = current._id;
  if (input.name !== undefined) await refuseTakenName(db, input.name, id);
  const currentAdmins = current.admins.map((a) => a.value);
  let nextAdmins: string[] | null = null;
  if (input.admins !== undefined) {
    const requested = await resolveAdminIds(db, input.admins);
    const same = requested.length === currentAdmins.length && requested.every((a) => currentAdmins.includes(a));
    if (!same) {
      // The dashboard sends the whole form back, so an unchanged list from an org_admin is fine.
      if (!canChangeOrganizationAdmins(viewer)) throw forbidden('Only admins can change the admins of an organization');
      nextAdmins = requested;
    }
  }
  const columns = organizationColumns(input);
  const writes: BatchItem<'sqlite'>[] = [];
  if (Object.keys(columns).length) writes.push(db.update(organizations).set(columns).where(eq(organizations.id, id)));
  if (nextAdmins) {
    const added = nextAdmins.filter((a) => !currentAdmins.includes(a));
    const removed = currentAdmins.filter((a) => !nextAdmins.includes(a));
    if (removed.length) {
      writes.push(
        db
          .delete(organizationAdmins)
          .where(and(eq(organizationAdmins.organizationId, id), inArray(organizationAdmins.userId, removed))),
      );
    }
    if (added.length) {
      writes.push(...insertAdminLinks(db, id, added));
      writes.push(promoteToOrgAdmin(db, added));
    }
    if (removed.length) writes.push(demoteOrphanedOrgAdmins(db, removed));
  }
  if (writes.length) {
    const [before] = await db.select().from(organizations).where(eq(organizations.id, id));
    const changes = changedFields(before as Record<string, unknown>, columns);
    if (nextAdmins) changes.admins = [currentAdmins, nextAdmins];
    if (Object.keys(changes).length) {
      writes.push(
        auditInsert(db, actorOf(viewer, requestId), {
          action: 'organization.update',
          targetType: 'organization',
          targetId: id,
          organizationId: id,
          changes,
        }),
      );
    }
    await db.batch(writes as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  }
  return (await loadOrganization(db, id))!;
}
