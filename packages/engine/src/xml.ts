/**
 * Text made safe inside XML or HTML, as element text or a quoted attribute value: the one escaping every
 * picture and page Roundkeeper writes uses (the web's timeline SVG, the CLI's plots and its report).
 */
const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}
