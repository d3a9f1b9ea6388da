/**
 * Writes the responsive copies of the demo images next to them (docs/decisions/015):
 * public/images/demo/cause-N-{480,800,1200}.{avif,webp} from cause-N.png. The worker never resizes
 * anything; pages list these files in <picture> srcsets (src/lib/images.ts). Re-run after changing
 * the PNGs:  bash scripts/with-node.sh node scripts/make-responsive-images.mjs
 * (sharp is a devDependency used only here.)
 */
import { readdirSync } from 'node:fs';
import sharp from 'sharp';

export const WIDTHS = [480, 800, 1200];
const dir = new URL('../public/images/demo/', import.meta.url);

for (const name of readdirSync(dir)
  .filter((f) => /^cause-\d+\.png$/.test(f))
  .sort()) {
  const source = sharp(new URL(name, dir).pathname);
  for (const width of WIDTHS) {
    const resized = source.clone().resize({ width, withoutEnlargement: true });
    const base = new URL(name.replace(/\.png$/, `-${width}`), dir).pathname;
    const avif = await resized.clone().avif({ quality: 50, effort: 6 }).toFile(`${base}.avif`);
    const webp = await resized.clone().webp({ quality: 75 }).toFile(`${base}.webp`);
    console.log(`${name} ${width}w: avif ${avif.size} B, webp ${webp.size} B`);
  }
}
