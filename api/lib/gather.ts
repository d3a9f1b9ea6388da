/**
 * Work of one kind that a burst of requests shares (docs/decisions/041): Stripe's fees of a storm's
 * gifts, the "sent" marks of their receipts. Per key (a database), the first item after a quiet
 * window goes at once; the items that come during the window wait for its end and go together, at
 * most `max` in one flush. Each caller's promise settles when the flush holding its item is done,
 * so a worker's `waitUntil` keeps the isolate until then.
 */
export type GatherTiming = { now?: number; wait?: (ms: number) => Promise<void> };

type Gathering<T> = { items: T[]; done: Promise<void> };
/** `nextAt`: the earliest a flush may start again; `gathering`: the items waiting for it. */
type Window<T> = { nextAt: number; gathering: Gathering<T> | null };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function gatherer<K extends object, T>(
  flush: (key: K, items: T[]) => Promise<void>,
  limits: { windowMs: number; max: number },
) {
  const windows = new WeakMap<K, Window<T>>();
  return (key: K, item: T, timing: GatherTiming = {}): Promise<void> => {
    const now = timing.now ?? Date.now();
    const wait = timing.wait ?? sleep;
    let state = windows.get(key);
    if (!state) windows.set(key, (state = { nextAt: Number.NEGATIVE_INFINITY, gathering: null }));
    const open = state.gathering;
    if (open && open.items.length < limits.max) {
      open.items.push(item);
      return open.done;
    }
    const at = Math.max(now, state.nextAt);
    state.nextAt = at + limits.windowMs;
    if (at === now && !open) return flush(key, [item]);
    const window = state;
    const gathering: Gathering<T> = { items: [item], done: Promise.resolve() };
    window.gathering = gathering;
    gathering.done = wait(at - now).then(() => {
      if (window.gathering === gathering) window.gathering = null;
      return flush(key, gathering.items);
    });
    return gathering.done;
  };
}
