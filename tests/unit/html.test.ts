import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../../domain/html';

describe('escapeHtml', () => {
  it('turns the five characters that change meaning in HTML into entities, and nothing else', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe(
      '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;',
    );
    expect(escapeHtml('£12.50 to Wells for Hope — thank you')).toBe('£12.50 to Wells for Hope — thank you');
  });

  it('escapes an ampersand once, so an entity in the text stays visible as typed', () => {
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});
