import { atom, computed } from 'nanostores';
import * as roles from '../../domain/roles';
import type { Viewer } from '../../domain/roles';
import { $authRestoring, $token, $user, initAuth, logout as authLogout, type User } from '../stores/auth';

export type DashUser = User;

/** True once the stored token has been checked on this page. */
const $checked = atom(false);

/** The shared sign-in store seen by the dashboard: undefined = still loading, null = not signed in. */
export const $dashUser = computed(
  [$user, $authRestoring, $checked],
  (user, restoring, checked): DashUser | null | undefined => (user ? user : !checked || restoring ? undefined : null),
);
export const $dashToken = $token;

/** The signed-in user as the role predicates of domain/roles.ts read it. */
export const viewerOf = (user: DashUser | null | undefined): Viewer | null =>
  user ? { id: user._id, type: user.type, orgIds: user.org_ids ?? [] } : null;

/** Admins and organization admins: the Admin menu and the staff screens. */
export const isStaff = (user: DashUser | null | undefined) => roles.isStaff(viewerOf(user));
export const isAdmin = (user: DashUser | null | undefined) => roles.isAdmin(viewerOf(user));
export const isOrgAdmin = (user: DashUser | null | undefined) => roles.isOrgAdmin(viewerOf(user));
/** Spec section 6: admins (and organization admins) see the status selector. */
export const canFilterStatus = (user: DashUser | null | undefined) => roles.isStaff(viewerOf(user));

/** Spec section 4: with a token and no user, ask GET /api/auth; a statusCode clears the token. */
export async function loadSession(): Promise<void> {
  await initAuth();
  $checked.set(true);
}

/** Re-reads the user after 'My Info' is saved so the header shows the new name. */
export async function refreshUser(): Promise<void> {
  $user.set(null);
  await loadSession();
}

export function logout(): Promise<void> {
  return authLogout();
}
