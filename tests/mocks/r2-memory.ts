/**
 * The parts of an R2 bucket our code uses (put, get, head, list, delete), in memory, for Node
 * tests (R2 itself only runs in workerd; the workers project uses the real binding).
 */
type Stored = {
  key: string;
  bytes: Uint8Array;
  uploaded: Date;
  httpMetadata?: R2HTTPMetadata;
  customMetadata?: Record<string, string>;
};

export function memoryBucket(): R2Bucket & { keys(): string[] } {
  const objects = new Map<string, Stored>();
  const toObject = (o: Stored) =>
    ({
      key: o.key,
      size: o.bytes.length,
      uploaded: o.uploaded,
      httpMetadata: o.httpMetadata ?? {},
      customMetadata: o.customMetadata ?? {},
      httpEtag: `"${o.key}"`,
      etag: o.key,
      writeHttpMetadata: (headers: Headers) => {
        if (o.httpMetadata?.contentType) headers.set('content-type', o.httpMetadata.contentType);
      },
    }) as unknown as R2Object;
  const bucket = {
    keys: () => [...objects.keys()].sort(),
    async put(key: string, value: ArrayBuffer | Uint8Array | string, options?: R2PutOptions) {
      const bytes =
        typeof value === 'string'
          ? new TextEncoder().encode(value)
          : value instanceof Uint8Array
            ? value
            : new Uint8Array(value);
      const stored: Stored = {
        key,
        bytes,
        uploaded: new Date(),
        httpMetadata: options?.httpMetadata as R2HTTPMetadata | undefined,
        customMetadata: options?.customMetadata,
      };
      objects.set(key, stored);
      return toObject(stored);
    },
    async head(key: string) {
      const o = objects.get(key);
      return o ? toObject(o) : null;
    },
    async get(key: string) {
      const o = objects.get(key);
      if (!o) return null;
      return Object.assign(toObject(o), {
        body: new Blob([o.bytes.slice()]).stream(),
        arrayBuffer: async () => o.bytes.slice().buffer,
      });
    },
    async delete(keys: string | string[]) {
      for (const key of Array.isArray(keys) ? keys : [keys]) objects.delete(key);
    },
    async list(options: R2ListOptions = {}) {
      const all = [...objects.values()]
        .filter((o) => !options.prefix || o.key.startsWith(options.prefix))
        .sort((a, b) => a.key.localeCompare(b.key));
      const start = options.cursor ? Number(options.cursor) : 0;
      const limit = options.limit ?? 1000;
      const page = all.slice(start, start + limit);
      const truncated = start + limit < all.length;
      return {
        objects: page.map(toObject),
        truncated,
        cursor: truncated ? String(start + limit) : undefined,
        delimitedPrefixes: [],
      } as unknown as R2Objects;
    },
  };
  return bucket as unknown as R2Bucket & { keys(): string[] };
}
