// Writes the Resources screen's two user guides (public/downloads/*.pdf) from
// src/dashboard/guides/guides.ts: plain one-font PDFs, small and readable anywhere.
// Run: bash scripts/with-node.sh node --experimental-strip-types scripts/make-guides.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { GUIDES } from '../src/dashboard/guides/guides.ts';

const root = path.resolve(import.meta.dirname, '..');
const PAGE = { width: 612, height: 792, margin: 60, bottom: 60 };
const pdfText = (text) => text.replace(/[\\()]/g, (c) => `\\${c}`);

/** Greedy wrap by characters: Helvetica at 11 pt fits about 95 characters on a line of 492 pt. */
function wrap(text, width) {
  const out = [];
  let line = '';
  for (const word of text.split(' ')) {
    if ((line ? `${line} ${word}` : word).length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

function pages(guide) {
  const rows = [{ size: 20, text: guide.title, gap: 30 }];
  for (const section of guide.sections) {
    rows.push({ size: 14, text: section.heading, gap: 22, bold: true });
    for (const line of section.lines) {
      wrap(line, 88).forEach((part, i) => rows.push({ size: 11, text: `${i === 0 ? '- ' : '  '}${part}`, gap: 16 }));
    }
    rows.push({ size: 11, text: '', gap: 8 });
  }
  const out = [[]];
  let y = PAGE.height - PAGE.margin;
  for (const row of rows) {
    if (y - row.gap < PAGE.bottom) {
      out.push([]);
      y = PAGE.height - PAGE.margin;
    }
    out.at(-1).push({ ...row, y });
    y -= row.gap;
  }
  return out;
}

function pdf(guide) {
  const objects = [];
  const add = (body) => objects.push(body) && objects.length;
  const catalog = add('');
  const pagesId = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const kids = [];
  for (const rows of pages(guide)) {
    const stream = rows
      .filter((r) => r.text)
      .map(
        (r) =>
          `BT /${r.bold || r.size === 20 ? 'F2' : 'F1'} ${r.size} Tf ${PAGE.margin} ${r.y} Td (${pdfText(r.text)}) Tj ET`,
      )
      .join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 ${PAGE.width} ${PAGE.height}] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = add(`<< /Title (${pdfText(guide.title)}) /Producer (UK NFP) >>`);
  let body = '%PDF-1.4\n';
  const offsets = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R /Info ${info} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

for (const guide of GUIDES) {
  const file = path.join(root, 'public', 'downloads', guide.file);
  writeFileSync(file, pdf(guide));
  console.log(`wrote ${path.relative(root, file)}`);
}
