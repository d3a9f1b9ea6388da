import type { ReadableAtom } from 'nanostores';
import { useSyncExternalStore } from 'react';

/**
 * A store's value in an island that the server renders. While React hydrates, it reads
 * `serverValue` (what the server rendered with: nobody signed in, nothing restoring), then moves to
 * the store's value in the render after. `useStore` reads the live value at once: an island that
 * hydrates late (client:visible below the fold, client:idle), after another island has loaded the
 * user, then renders something else than the server's HTML and React throws error 418.
 */
export function useIslandStore<T>(store: ReadableAtom<T>, serverValue: T): T {
  return useSyncExternalStore(
    (onChange) => store.listen(onChange),
    () => store.get(),
    () => serverValue,
  );
}
