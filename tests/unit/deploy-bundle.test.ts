import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/** Cloudflare's compressed Worker size limit on the paid plan is 10 MB; we hold ourselves to 3 MB. */
const LIMIT_GZIP_BYTES = 3 * 1024 * 1024;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

describe('wrangler deploy --dry-run', () => {
  it('bundles the built worker under 3 MB gzip', { timeout: 120_000 }, () => {
    expect(existsSync('dist/server/wrangler.json'), 'run `astro build` first (npm test does)').toBe(true);
    const outdir = '.cache/deploy-dry-run';
    rmSync(outdir, { recursive: true, force: true });
    const output = execFileSync(
      'wrangler',
      ['deploy', '--dry-run', '--config', 'dist/server/wrangler.json', '--outdir', outdir],
      { encoding: 'utf8', env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    expect(output).toMatch(/--dry-run: exiting now/);
    const modules = filesUnder(outdir).filter((file) => /\.(m?js|wasm)$/.test(file));
    expect(modules.length).toBeGreaterThan(0);
    const gzipBytes = modules.reduce((sum, file) => sum + gzipSync(readFileSync(file)).length, 0);
    console.log(`[bundle] ${modules.length} modules, ${(gzipBytes / 1024).toFixed(0)} KiB gzip`);
    expect(gzipBytes).toBeLessThan(LIMIT_GZIP_BYTES);
  });
});
