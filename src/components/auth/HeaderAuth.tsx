import { useStore } from '@nanostores/react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { $authRestoring, $loginOpen, $user, initAuth, openLogin } from '../../stores/auth';
import { useIslandStore } from '../../stores/use-island-store';
import AvatarMenu from './AvatarMenu';

/**
 * The sign-in dialog (with its consent box and security check) is its own chunk, fetched the first
 * time someone reaches for it (pointer over or focus on Login) or anything opens it: most visitors
 * of a shared appeal never sign in, and every public page loads this island.
 */
const loadLoginDialog = () => import('./LoginDialog');
const LoginDialog = lazy(loadLoginDialog);

/** Header sign-in control: Login (opens the dialog) or, once signed in, the avatar menu. */
export default function HeaderAuth() {
  const user = useIslandStore($user, null);
  const restoring = useIslandStore($authRestoring, false);
  const loginOpen = useStore($loginOpen);
  // Once mounted the dialog stays mounted, so closing and reopening keeps its native <dialog>.
  const [dialogWanted, setDialogWanted] = useState(false);

  useEffect(() => {
    void initAuth();
  }, []);
  useEffect(() => {
    if (loginOpen) setDialogWanted(true);
  }, [loginOpen]);

  const prefetch = () => void loadLoginDialog();
  return (
    <>
      {user ? (
        <AvatarMenu user={user} />
      ) : restoring ? (
        <span className="avatar-button avatar-pending" role="status" aria-label="Loading your account" />
      ) : (
        <button
          type="button"
          className="btn btn-ghost"
          aria-haspopup="dialog"
          onClick={openLogin}
          onPointerEnter={prefetch}
          onFocus={prefetch}
        >
          Login
        </button>
      )}
      {dialogWanted ? (
        <Suspense fallback={null}>
          <LoginDialog />
        </Suspense>
      ) : null}
    </>
  );
}
