/** Header sign-in control; the login dialog and avatar menu arrive with the sign-in work. */
export default function HeaderAuth() {
  return (
    <a className="btn btn-ghost" href="/login">
      Login
    </a>
  );
}
