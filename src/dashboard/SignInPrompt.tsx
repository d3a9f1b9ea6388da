import LoginDialog from '../components/auth/LoginDialog';
import { openLogin } from '../stores/auth';

/** Shown when there is no token (spec section 6: without one nothing loads). */
export function SignInPrompt() {
  return (
    <main id="dash-main" className="dash-main">
      <section className="dash-section dash-signin">
        <h1>Sign in to your dashboard</h1>
        <p>Your donations, appeals and account details are here once you sign in with your email.</p>
        <button type="button" className="btn btn-primary" aria-haspopup="dialog" onClick={openLogin}>
          Sign in
        </button>
      </section>
      <LoginDialog />
    </main>
  );
}
