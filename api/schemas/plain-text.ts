/**
 * Text a person types that the site shows again (a support message, a template cause): markup is
 * refused rather than stored, and invisible characters and stray spacing are tidied away.
 */

/** An HTML tag such as <b> or </script>: refused, since the text is shown in pages and emails. */
export const HTML_TAG = /<\s*\/?\s*[a-z!?][^>]*>/i;

// Control characters other than line breaks and tabs, and the invisible direction marks.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\u200B-\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Without control characters, with \n line breaks (kept only when `multiline`; else runs of spaces become one), trimmed. */
export function tidyText(value: string, multiline = false): string {
  const clean = value.replace(CONTROL, '').replace(/\r\n?/g, '\n');
  return (multiline ? clean : clean.replace(/\s+/g, ' ')).trim();
}
