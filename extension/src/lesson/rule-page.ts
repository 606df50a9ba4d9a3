import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { isRuleName } from '../rules.js';
import { escapeAttribute } from './lesson-html.js';

/** A rule's page as the build renders it from eslint-plugin/docs/rules (scripts/rule-pages.mjs). */
interface BuiltRulePage {
  html: string;
  /** `<lesson>#<anchor>`, the place that teaches the rule, and that place's title. */
  lesson: string;
  lessonPlace: string;
  /** A command link that opens the lesson there. */
  openLesson: string;
}

export interface RulePage {
  title: string;
  html: string;
}

/**
 * The rule's page for the panel: its documentation, rendered from Markdown at build time with raw
 * HTML escaped, under a link to the place in the lesson that teaches it. A missing or unreadable
 * page says so in words.
 */
export function loadRulePage(rulesRoot: string, rule: string): RulePage {
  const file = path.join(rulesRoot, `${rule}.json`);
  if (!isRuleName(rule) || !existsSync(file)) return { title: 'Rule', html: paragraph(`The rule “${rule}” has no page in this version of the extension.`) };
  try {
    const page = JSON.parse(readFileSync(file, 'utf8')) as BuiltRulePage;
    const link = `<nav class="rule-lesson"><a href="${escapeAttribute(page.openLesson)}">Learn why: open the lesson at ${escapeAttribute(page.lessonPlace)}</a></nav>`;
    return { title: `Rule: ${rule}`, html: `${link}\n<article class="rule-page">${page.html}</article>` };
  } catch (error) {
    return { title: 'Rule', html: paragraph(`The page of the rule “${rule}” could not be read (${error instanceof Error ? error.message : String(error)}).`) };
  }
}

function paragraph(message: string): string {
  return `<p class="unavailable">${escapeAttribute(message)}</p>`;
}
