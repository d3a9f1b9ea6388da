import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_UP_SCREENS, matchRoute } from '../lib/routes';
import { GUIDES } from './guides';

/** Dashboard screens that are the spec's mock-ups (fixed sample content): a guide must not send anyone there. */
const MOCK_UPS: readonly string[] = [...MOCK_UP_SCREENS, 'communication-detail'];

const text = (guide: (typeof GUIDES)[number]) => guide.sections.flatMap((s) => [s.heading, ...s.lines]).join('\n');

describe('the user guides under Resources', () => {
  it('name only real dashboard screens, never a mock-up', () => {
    for (const guide of GUIDES) {
      const paths = [...text(guide).matchAll(/\/dashboard\/[a-z0-9/-]+/g)].map((m) => m[0]);
      expect(paths.length, guide.file).toBeGreaterThan(2);
      for (const p of paths) {
        const route = matchRoute(p);
        expect(route.name, `${guide.file}: ${p}`).not.toBe('not-found');
        expect(MOCK_UPS, `${guide.file}: ${p}`).not.toContain(route.name);
      }
      expect(text(guide)).not.toMatch(/Donate Receipts|Rewards|Payment Methods|Communication/);
    }
  });

  it('are the PDFs served under /downloads (regenerate with scripts/make-guides.mjs)', () => {
    for (const guide of GUIDES) {
      const pdf = readFileSync(path.join(import.meta.dirname, '../../../public/downloads', guide.file), 'latin1');
      expect(pdf.startsWith('%PDF-1.4')).toBe(true);
      for (const line of guide.sections.flatMap((s) => s.lines)) {
        // Each line's first words are in the file (lines wrap, so only the start is checked).
        const start = line
          .split(' ')
          .slice(0, 4)
          .join(' ')
          .replace(/[\\()]/g, (c) => `\\${c}`);
        expect(pdf, `${guide.file}: ${line}`).toContain(start);
      }
    }
  });
});
