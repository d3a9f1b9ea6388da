import { useEffect, useRef } from 'react';

/**
 * Focus for a confirmation that takes the place of the button which opened it: into the confirmation
 * (the `inside` button, its way back) when it opens, and back to the `opener` when it closes.
 */
export function useConfirmFocus(open: boolean) {
  const inside = useRef<HTMLButtonElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (open) inside.current?.focus();
    else if (wasOpen.current) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return { inside, opener };
}
