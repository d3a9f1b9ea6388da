import { sql, type SQL } from 'drizzle-orm';
import { forbidden } from '../../lib/errors';
import { orgScope, readsFinance } from '../../lib/policy';
import type { AuthUser } from '../../lib/types';

/**
 * What a staff viewer may aggregate or export, as a condition on a campaign's organization
 * (the same rule as the admin lists): admins everything, org admins their organizations only.
 * `organizationId` narrows further; an org admin asking for another organization is refused.
 */
export type OrgScope = { all: true } | { all: false; orgIds: string[] };

export function staffScope(viewer: AuthUser, organizationId?: string): OrgScope {
  if (!readsFinance(viewer))
    throw forbidden('Only admins, organization admins and finance users can see reports and exports');
  const scope = orgScope(viewer);
  if (scope === 'all') return organizationId ? { all: false, orgIds: [organizationId] } : { all: true };
  if (organizationId) {
    if (!scope.includes(organizationId)) throw forbidden('organization_id: you can only see your own organizations');
    return { all: false, orgIds: [organizationId] };
  }
  return { all: false, orgIds: scope };
}

/** `column in (...)` for a scoped viewer (always false with no organizations), or undefined for all. */
export function orgCondition(scope: OrgScope, column: SQL): SQL | undefined {
  if (scope.all) return undefined;
  if (!scope.orgIds.length) return sql`0`;
  return sql`${column} in (${sql.join(
    scope.orgIds.map((id) => sql`${id}`),
    sql`, `,
  )})`;
}
