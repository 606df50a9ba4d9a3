import MarkdownIt from 'markdown-it';

import type { Html } from '../model.js';

/**
 * Lesson text becomes HTML here, once, at build time. Raw HTML in the Markdown is escaped rather
 * than passed through, and markdown-it refuses `javascript:` and similar link targets, so a host
 * can insert the result without sanitising it again.
 */
const markdown = new MarkdownIt({ html: false, linkify: false, typographer: false });

export function renderMarkdown(text: string): Html {
  return markdown.render(text).trim();
}
