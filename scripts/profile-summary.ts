/**
 * The functions and files that took the most self time in a V8 CPU profile (`node --cpu-prof`,
 * or `tsx scripts/bench-gift-cost.ts --profile FILE`).
 *
 *   tsx scripts/profile-summary.ts FILE.cpuprofile [--top N]
 */
import { readFileSync } from 'node:fs';
import { optionValue } from './bench-lib';

type CallFrame = { functionName: string; url: string; lineNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };

const argv = process.argv.slice(2);
const file = argv.find((a) => !a.startsWith('--') && a !== optionValue(argv, '--top'));
const top = Number(optionValue(argv, '--top') ?? 30);
if (!file || !Number.isInteger(top) || top < 1) {
  console.error('usage: tsx scripts/profile-summary.ts FILE.cpuprofile [--top N]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
let totalUs = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  totalUs += dt;
});

const place = (url: string) =>
  url
    .replace(/^file:\/\//, '')
    .replace(/.*node_modules\/((@[^/]+\/)?[^/]+)\/.*/, '$1')
    .replace(`${process.cwd()}/`, '');
const byFunction = new Map<string, number>();
const byFile = new Map<string, number>();
for (const [id, us] of selfUs) {
  const frame = (nodes.get(id) as ProfileNode).callFrame;
  const where = place(frame.url) || '(native)';
  const name = `${frame.functionName || '(anonymous)'}  ${where}${frame.url ? `:${frame.lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  const key = frame.url ? where : `(native) ${frame.functionName}`;
  byFile.set(key, (byFile.get(key) ?? 0) + us);
}
const list = (m: Map<string, number>) =>
  [...m]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(
      ([name, us]) =>
        `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / totalUs).toFixed(1).padStart(5)}%  ${name}`,
    )
    .join('\n');
console.log(
  `${(totalUs / 1000).toFixed(0)} ms sampled\n\nself time by file or package:\n${list(byFile)}\n\nself time by function:\n${list(byFunction)}`,
);
