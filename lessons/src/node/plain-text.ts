/**
 * The built lesson holds HTML for hosts that render it; a terminal gets the same text without
 * markup. The HTML comes from our own Markdown renderer, so tags and the few entities it emits
 * are all there is to undo.
 */
const entities: Record<string, string> = { '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' };

/** `paragraphs` separates the paragraphs: a line break by default, a blank line for reading. */
export function plainText(html: string, paragraphs = '\n'): string {
  return html
    .replace(/<\/p>\s*<p>/g, paragraphs)
    .replace(/<[^>]+>/g, '')
    .replace(/&(lt|gt|quot|#39|amp);/g, (entity) => entities[entity] ?? entity)
    .trim();
}
