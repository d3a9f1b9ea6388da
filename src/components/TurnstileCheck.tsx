import { useEffect, useRef, useState } from 'react';
import { loadTurnstile, turnstileSiteKey } from '../lib/turnstile';

/**
 * The security check the server asks for past a threshold (statusCode 428). It renders Cloudflare
 * Turnstile and hands its one-use token to `onToken`; the form then sends the request again.
 */
export default function TurnstileCheck({ action, onToken }: { action: string; onToken: (token: string) => void }) {
  const box = useRef<HTMLDivElement>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const callback = useRef(onToken);
  callback.current = onToken;

  useEffect(() => {
    let widget: string | null = null;
    let live = true;
    void (async () => {
      try {
        const [key, turnstile] = await Promise.all([turnstileSiteKey(), loadTurnstile()]);
        if (!live || !box.current) return;
        if (!key) throw new Error('no site key');
        widget = turnstile.render(box.current, {
          sitekey: key,
          action,
          callback: (token) => callback.current(token),
          'error-callback': () => setProblem('The security check could not run. Please reload the page and try again.'),
          'expired-callback': () => setProblem('The security check expired. Please complete it again.'),
        });
      } catch {
        if (live) setProblem('The security check could not be loaded. Please check your connection and try again.');
      }
    })();
    return () => {
      live = false;
      if (widget && window.turnstile) window.turnstile.remove(widget);
    };
  }, [action]);

  return (
    <div className="turnstile-check" role="group" aria-label="Security check">
      <p className="field-hint">Please complete this quick security check to continue.</p>
      <div ref={box} />
      {problem && <p className="field-error">{problem}</p>}
    </div>
  );
}
