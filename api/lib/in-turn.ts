/**
 * At most `limit` calls of `run` in progress at once in this isolate; the others wait, holding no
 * work meanwhile. For writes the database runs one at a time anyway (D1 and Turso have one writer
 * per database): many more in flight would only queue inside the database while every step of
 * theirs takes a turn of the isolate's one thread from its visitors.
 *
 * A waiting call polls on its own timer rather than awaiting a promise another request resolves:
 * the Workers runtime cancels a request whose only pending work belongs to another request ("your
 * Worker's code had hung"). The poll slows as more wait, so a thousand waiting cost little.
 */
export function inTurn(limit: number, pollMs = 10) {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('inTurn needs a whole number of at least 1');
  let running = 0;
  let waiting = 0;
  const pause = () =>
    new Promise<void>((resolve) =>
      setTimeout(resolve, Math.min(1000, pollMs * (1 + waiting / 4) * (0.5 + Math.random()))),
    );
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= limit) {
        waiting++;
        try {
          while (running >= limit) await pause();
        } finally {
          waiting--;
        }
      }
      running++;
      try {
        return await work();
      } finally {
        running--;
      }
    },
    /** In progress and waiting now (for logs and tests). */
    get load() {
      return { running, waiting };
    },
  };
}
