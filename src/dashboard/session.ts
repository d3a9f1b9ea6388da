import { atom, computed } from 'nanostores';
import { $authRestoring, $token, $user, initAuth, logout as authLogout, type User } from '../stores/auth';

export type DashUser = User;

/** True once the stored token has been checked on this page. */
const $checked = atom(false);

/** The shared sign-in store seen by the dashboard: undefined = still loading, null = not signed in. */
export const $dashUser = computed([$user, $authRestoring, $checked], (user, restoring, checked): DashUser | null | undefined =>
  user ? user : !checked || restoring ? undefined : null,
);
export const $dashToken = $token;

export const isAdmin = (user: DashUser | null | undefined) => !!user && user.type !== 'donor';
export const isOrgAdmin = (user: DashUser | null | undefined) => user?.type === 'org_admin';
/** Spec section 6: types that include 'admin' see the status selector. */
export const canFilterStatus = (user: DashUser | null | undefined) => !!user && user.type.includes('admin');

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
