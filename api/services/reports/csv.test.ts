import { describe, expect, it } from 'vitest';
import { CSV_BOM, csvCell, csvRow, csvStream, raw } from './csv';

describe('CSV cells', () => {
  it('quotes commas, quotes, line breaks and edge spaces, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('Wells, "clean" water')).toBe('"Wells, ""clean"" water"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(true)).toBe('Yes');
    expect(csvCell(false)).toBe('No');
  });

  it('defuses text a spreadsheet would run as a formula', () => {
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('+44 20 7946 0000')).toBe("'+44 20 7946 0000");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    // Amounts we format ourselves stay numbers.
    expect(csvCell(raw('-12.50'))).toBe('-12.50');
  });

  it('ends rows with CRLF', () => {
    expect(csvRow(['a', 'b,c', raw('1.00')])).toBe('a,"b,c",1.00\r\n');
  });

  it('streams the header then every page until a short one', async () => {
    const data = ['r1', 'r2', 'r3', 'r4', 'r5'];
    const asked: number[] = [];
    const stream = csvStream(
      ['Name'],
      async (offset, limit) => {
        asked.push(offset);
        return data.slice(offset, offset + limit);
      },
      (r) => [r],
      2,
    );
    const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await new Response(stream).arrayBuffer());
    expect(text).toBe(`${CSV_BOM}Name\r\nr1\r\nr2\r\nr3\r\nr4\r\nr5\r\n`);
    expect(asked).toEqual([0, 2, 4]);
  });
});
