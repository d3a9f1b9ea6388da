import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $authRestoring, $user, initAuth, openLogin } from '../../stores/auth';
import AvatarMenu from './AvatarMenu';
import LoginDialog from './LoginDialog';

/** Header sign-in control: Login (opens the dialog) or, once signed in, the avatar menu. */
export default function HeaderAuth() {
  const user = useStore($user);
  const restoring = useStore($authRestoring);

  useEffect(() => {
    void initAuth();
  }, []);

  return (
    <>
      {user ? (
        <AvatarMenu user={user} />
      ) : restoring ? (
        <span className="avatar-button avatar-pending" role="status" aria-label="Loading your account" />
      ) : (
        <button type="button" className="btn btn-ghost" aria-haspopup="dialog" onClick={openLogin}>
          Login
        </button>
      )}
      <LoginDialog />
    </>
  );
}
