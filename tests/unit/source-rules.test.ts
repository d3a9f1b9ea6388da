import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Rules about the source a type checker does not enforce: no two modules import each other (a
 * circle makes load order matter and hides which one owns the shared piece), and browser code
 * never casts to `any` (the API contract gives every answer its type).
 */
const root = path.resolve(import.meta.dirname, '../..');

function files(dir: string, { tests = false } = {}): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...files(rel, { tests }));
    else if (/\.(ts|tsx)$/.test(rel) && (tests || !/\.test\.tsx?$/.test(rel)) && !rel.endsWith('.d.ts')) out.push(rel);
  }
  return out;
}

/** Relative imports of any kind (type-only ones too: they still tie the two files together). */
function relativeImports(file: string): string[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  const found: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm))
    found.push(m[1]);
  for (const m of source.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g)) found.push(m[1]);
  return found;
}

/** The file an import names: `./a` is a.ts, a.tsx or a/index.ts. */
function resolve(from: string, spec: string, known: Set<string>): string | null {
  const base = path.join(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')])
    if (known.has(candidate)) return candidate;
  return null;
}

describe('source rules', () => {
  const all = ['api', 'db', 'domain', 'src', 'scripts'].flatMap((dir) => files(dir));
  const known = new Set(all);

  it('no two modules import each other', () => {
    expect(all.length).toBeGreaterThan(200);
    const edges = new Map(
      all.map((file) => [
        file,
        new Set(
          relativeImports(file)
            .map((spec) => resolve(file, spec, known))
            .filter((f): f is string => f !== null),
        ),
      ]),
    );
    const circles: string[] = [];
    for (const [file, targets] of edges) {
      for (const target of targets)
        if (file < target && edges.get(target)?.has(file)) circles.push(`${file} <-> ${target}`);
    }
    expect(circles).toEqual([]);
  });

  it('no code or test casts to any (the routes’ types reach the screens and the tests)', () => {
    const casts = ['api', 'src', 'db', 'domain', 'scripts', 'tests']
      .flatMap((dir) => files(dir, { tests: true }))
      .filter((file) => file !== 'tests/unit/source-rules.test.ts')
      .flatMap((file) =>
        readFileSync(path.join(root, file), 'utf8')
          .split('\n')
          .flatMap((line, i) => (/\bas any\b/.test(line) ? [`${file}:${i + 1}`] : [])),
      );
    expect(casts).toEqual([]);
  });

  it('every route is in its router’s chain, so the typed client and the tests through it can reach it', () => {
    // `router.openapi(…)` as a statement of its own registers the route at run time but leaves it out
    // of the router's type, so `testClient` and src/lib/api.ts cannot call it.
    const unchained = files('api/routes').flatMap((file) =>
      readFileSync(path.join(root, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/^\s*[A-Za-z]\w*\.(openapi|route)\(/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    expect(unchained).toEqual([]);
  });
});
