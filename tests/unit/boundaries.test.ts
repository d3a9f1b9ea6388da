import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Import rules the type checker cannot see: browser code (islands, the dashboard,
 * stores, src/lib outside server/) never imports server code at run time (type-only imports are
 * erased and allowed), and routes never import sibling routes.
 */
const root = path.resolve(import.meta.dirname, '../..');

function files(dir: string, test: (file: string) => boolean): string[] {
  const out: string[] = [];
  for (const name of readdirSync(path.join(root, dir))) {
    const rel = path.join(dir, name);
    if (statSync(path.join(root, rel)).isDirectory()) out.push(...files(rel, test));
    else if (test(rel)) out.push(rel);
  }
  return out;
}

/** Runtime imports: `import x from '...'`, `export ... from '...'` and `import('...')`, not `import type`. */
function runtimeImports(source: string): string[] {
  const specs: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm))
    specs.push(m[1]);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) specs.push(m[1]);
  return specs;
}

const code = (f: string) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f);

describe('import boundaries', () => {
  const browser = [
    ...files('src/components', code),
    ...files('src/dashboard', code),
    ...files('src/stores', code),
    ...files('src/lib', (f) => code(f) && !f.startsWith(path.join('src', 'lib', 'server'))),
  ];

  it('finds the browser code and its imports', () => {
    expect(browser.length).toBeGreaterThan(40);
    expect(
      runtimeImports(
        "import { a } from './a';\nimport type { B } from '../../api';\nconst C = lazy(() => import('./c'));",
      ),
    ).toEqual(['./a', './c']);
  });

  it('browser code imports no server code, Node or Workers modules at run time', () => {
    const offending: string[] = [];
    for (const file of browser) {
      for (const spec of runtimeImports(readFileSync(path.join(root, file), 'utf8'))) {
        const target = spec.startsWith('.') ? path.relative(root, path.resolve(root, path.dirname(file), spec)) : spec;
        const server =
          /^(api|db)(\/|$)/.test(target) ||
          target.startsWith('src/lib/server') ||
          /^(node:|cloudflare:)/.test(spec) ||
          ['drizzle-orm', 'stripe', '@libsql/client', 'hono'].includes(spec);
        if (server) offending.push(`${file} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('routes do not import sibling routes', () => {
    const offending: string[] = [];
    for (const file of files('api/routes', code)) {
      const own = file.split(path.sep).slice(0, 3).join('/');
      for (const spec of runtimeImports(readFileSync(path.join(root, file), 'utf8'))) {
        const target = path
          .relative(root, path.resolve(root, path.dirname(file), spec))
          .split(path.sep)
          .join('/');
        if (target.startsWith('api/routes/') && !target.startsWith(`${own}/`)) offending.push(`${file} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('routes are declared with defineRoute, so every answer is checked against its schema', () => {
    const offending = files('api', code)
      .filter((file) => file !== path.join('api', 'lib', 'openapi.ts'))
      .filter((file) => /\bcreateRoute\(/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(offending).toEqual([]);
  });

  it('route handlers do not query the database: queries live in api/services', () => {
    const offending: string[] = [];
    for (const file of files('api/routes', code)) {
      for (const spec of runtimeImports(readFileSync(path.join(root, file), 'utf8'))) {
        const target = spec.startsWith('.')
          ? path
              .relative(root, path.resolve(root, path.dirname(file), spec))
              .split(path.sep)
              .join('/')
          : spec;
        if (/^drizzle-orm(\/|$)/.test(spec) || /^db\/schema(\/|$)/.test(target)) offending.push(`${file} → ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('only the payment provider (api/services/payments/) asks which payment mode it is in', () => {
    const modeCheck = /\.mode\s*[!=]==|[!=]==\s*[\w.]*\.mode\b|!\s*(ctx\.)?stripe\b|\bpayments\.api\b/;
    expect(modeCheck.test("if (ctx.payments.mode !== 'demo')")).toBe(true);
    expect(modeCheck.test('if (!stripe || !p.paymentIntentId)')).toBe(true);
    expect(modeCheck.test("eq(donations.source, 'demo')")).toBe(false);
    const offending = ['api/services', 'api/routes']
      .flatMap((dir) => files(dir, code))
      .filter((file) => !file.startsWith(path.join('api', 'services', 'payments') + path.sep))
      .filter((file) => modeCheck.test(readFileSync(path.join(root, file), 'utf8')));
    expect(offending).toEqual([]);
  });

  it('roles are read only by the policy (api/lib/policy.ts) and domain/', () => {
    const roleComparison = /\btype\s*[!=]==\s*['"](admin|org_admin|finance|donor)['"]/;
    const offending = ['api', 'src', 'db']
      .flatMap((dir) => files(dir, (f) => code(f) && !f.includes('node_modules')))
      .filter((file) => file !== path.join('api', 'lib', 'policy.ts'))
      .filter((file) => roleComparison.test(readFileSync(path.join(root, file), 'utf8')));
    expect(offending).toEqual([]);
  });
});
