/**
 * At most `limit` calls of `run` in progress at once in this isolate; the others wait their turn in
 * arrival order, holding no work meanwhile. For writes the database runs one at a time anyway
 * (D1 and Turso have one writer per database): many more in flight would only queue inside the
 * database while every step of theirs takes a turn of the isolate's one thread from its visitors.
 */
export function inTurn(limit: number) {
  if (!Number.isInteger(limit) || limit < 1) throw new Error('inTurn needs a whole number of at least 1');
  let running = 0;
  const waiting: (() => void)[] = [];
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (running >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
      else running++;
      try {
        return await work();
      } finally {
        // The slot passes straight to the next in line (running stays the same), else it is freed.
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    /** In progress and waiting now (for logs and tests). */
    get load() {
      return { running, waiting: waiting.length };
    },
  };
}
