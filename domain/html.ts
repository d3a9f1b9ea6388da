/** The five characters that change meaning in HTML text and quoted attributes, as their entities. */
const HTML_ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside HTML text or a quoted attribute: every email and server-written page escapes through this. */
export const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (ch) => HTML_ENTITIES[ch] ?? ch);
