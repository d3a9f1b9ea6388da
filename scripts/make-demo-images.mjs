/**
 * Writes the seed's demo images public/images/demo/cause-1.png … cause-9.png (1200x800):
 * a diagonal two-colour gradient with a simple white motif. Only node:zlib, no image library.
 *   node scripts/make-demo-images.mjs
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const W = 1200;
const H = 800;
const OUT = new URL('../public/images/demo/', import.meta.url);

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'ascii');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/** Signed distances (negative inside) of the motifs, in pixels, around centre (0,0). */
const circle = (r) => (x, y) => Math.hypot(x, y) - r;
const box = (hw, hh) => (x, y) => {
  const dx = Math.abs(x) - hw;
  const dy = Math.abs(y) - hh;
  return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0);
};
const union =
  (...shapes) =>
  (x, y) =>
    Math.min(...shapes.map((s) => s(x, y)));
const shift = (shape, ox, oy) => (x, y) => shape(x - ox, y - oy);
const triangle = (half, height) => (x, y) => {
  // Isosceles triangle, apex at (0,-height/2), base at y = height/2.
  const slope = Math.hypot(half, height);
  const side = (height * Math.abs(x) - half * (y + height / 2)) / slope;
  return Math.max(side, y - height / 2, -y - height / 2);
};
const heart = (s) => (x, y) =>
  union(shift(circle(s * 0.55), -s * 0.5, -s * 0.2), shift(circle(s * 0.55), s * 0.5, -s * 0.2), (px, py) => {
    // Lower point: a rotated square.
    const u = (px + py - s * 0.25) / Math.SQRT2;
    const v = (px - py + s * 0.25) / Math.SQRT2;
    return box(s * 0.74, s * 0.74)(u, v);
  })(x, y);
const drop = (s) => union(shift(circle(s * 0.7), 0, s * 0.35), shift(triangle(s * 0.62, s * 1.3), 0, -s * 0.45));
const house = (s) =>
  union(shift(box(s * 0.7, s * 0.55), 0, s * 0.45), shift(triangle(s * 1.05, s * 0.8), 0, -s * 0.45));
const sun = (s) =>
  union(
    circle(s * 0.6),
    ...Array.from({ length: 8 }, (_, i) => {
      const a = (i * Math.PI) / 4;
      return (x, y) => {
        const rx = x * Math.cos(a) + y * Math.sin(a);
        const ry = -x * Math.sin(a) + y * Math.cos(a);
        return box(s * 0.08, s * 0.22)(rx, ry - s * 0.95);
      };
    }),
  );
const bowl = (s) =>
  union(
    (x, y) => Math.max(circle(s * 0.9)(x, y), -y),
    shift(box(s * 0.95, s * 0.06), 0, 0),
    shift(circle(s * 0.12), -s * 0.3, -s * 0.35),
    shift(circle(s * 0.12), s * 0.1, -s * 0.55),
    shift(circle(s * 0.12), s * 0.45, -s * 0.3),
  );
const star = (s) => (x, y) => {
  const a = Math.atan2(y, x) + Math.PI / 2;
  const r = Math.hypot(x, y);
  const k =
    Math.cos((Math.PI / 5) * 1) /
    Math.cos((((a % ((2 * Math.PI) / 5)) - Math.PI / 5 + 2 * Math.PI) % ((2 * Math.PI) / 5)) - Math.PI / 5);
  return r - (s * (0.45 + 0.55 * (k - 0.81) * 5.2)) / 1.6;
};
const cross = (s) => union(box(s * 0.28, s * 0.85), box(s * 0.85, s * 0.28));
const people = (s) =>
  union(
    shift(circle(s * 0.28), -s * 0.45, -s * 0.45),
    shift(circle(s * 0.28), s * 0.45, -s * 0.45),
    shift(box(s * 0.3, s * 0.45), -s * 0.45, s * 0.35),
    shift(box(s * 0.3, s * 0.45), s * 0.45, s * 0.35),
  );
const book = (s) => union(shift(box(s * 0.48, s * 0.65), -s * 0.52, 0), shift(box(s * 0.48, s * 0.65), s * 0.52, 0));

const DESIGNS = [
  { from: [14, 116, 144], to: [110, 196, 190], motif: drop(170) },
  { from: [194, 65, 12], to: [251, 191, 36], motif: bowl(190) },
  { from: [30, 64, 175], to: [125, 211, 252], motif: house(180) },
  { from: [157, 23, 77], to: [244, 114, 182], motif: heart(160) },
  { from: [21, 128, 61], to: [190, 242, 100], motif: star(230) },
  { from: [88, 28, 135], to: [196, 181, 253], motif: people(190) },
  { from: [180, 83, 9], to: [253, 224, 71], motif: sun(180) },
  { from: [15, 118, 110], to: [153, 246, 228], motif: cross(170) },
  { from: [55, 65, 81], to: [165, 180, 252], motif: book(160) },
];

function render({ from, to, motif }) {
  const stride = W * 3 + 1;
  const raw = Buffer.alloc(stride * H);
  const cx = W * 0.5;
  const cy = H * 0.5;
  for (let y = 0; y < H; y++) {
    const row = y * stride;
    raw[row] = 0; // filter: none (the zlib stream still finds the long runs)
    for (let x = 0; x < W; x++) {
      // Quantised diagonal gradient: 64 steps keep bands soft and the file small.
      const t = Math.round(((x / W) * 0.6 + (y / H) * 0.4) * 63) / 63;
      let r = from[0] + (to[0] - from[0]) * t;
      let g = from[1] + (to[1] - from[1]) * t;
      let b = from[2] + (to[2] - from[2]) * t;
      // A soft halo behind the motif, then the motif itself with a 1.5 px anti-aliased edge.
      const d = motif(x - cx, y - cy);
      const halo = Math.hypot(x - cx, y - cy) < 300 ? 0.12 : 0;
      const cover = Math.min(1, Math.max(0, 0.5 - d / 1.5));
      const alpha = Math.max(halo, cover * 0.92);
      r += (255 - r) * alpha;
      g += (255 - g) * alpha;
      b += (255 - b) * alpha;
      const i = row + 1 + x * 3;
      raw[i] = r;
      raw[i + 1] = g;
      raw[i + 2] = b;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(W, 0);
  header.writeUInt32BE(H, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(OUT, { recursive: true });
DESIGNS.forEach((design, i) => {
  const png = render(design);
  writeFileSync(new URL(`cause-${i + 1}.png`, OUT), png);
  console.log(`cause-${i + 1}.png ${(png.length / 1024).toFixed(1)} KB`);
});
