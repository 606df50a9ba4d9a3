import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

import { isRuleName } from '../rules.js';
import type { RuleLevel } from '../settings.js';
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

/** How this editor reports the rule, from the settings of the file the page was asked from. */
export interface RuleInEditor {
  level: RuleLevel;
  /** The project's ESLint setup reports the findings instead (idempotency.deferToProjectEslint). */
  deferred: boolean;
}

const levelWords: Record<Exclude<RuleLevel, 'off'>, string> = {
  error: 'an error',
  warning: 'a warning',
  information: 'information',
  hint: 'a hint (no squiggle)',
};

/** The page's line on how the rule is reported: what this editor does, then what CI does with the recommended config. */
function inEditorLine(rule: RuleInEditor, suggestions: boolean): string {
  const here = rule.deferred
    ? "In this editor: reported by your project's ESLint setup, as its config says (idempotency.deferToProjectEslint)."
    : rule.level === 'off'
      ? 'In this editor: turned off (idempotency.rules), so nothing is reported.'
      : `In this editor: reported as ${levelWords[rule.level]} (idempotency.rules).${suggestions ? ' Its suggested repair is in the quick-fix menu (Ctrl+.).' : ''}`;
  return `<p class="rule-in-editor">${escapeAttribute(here)} In CI, ESLint with the plugin's recommended config reports it as an error.</p>`;
}

/**
 * The rule's page for the panel: its documentation, rendered from Markdown at build time with raw
 * HTML escaped, under a link to the place in the lesson that teaches it. A missing or unreadable
 * page says so in words.
 */
export function loadRulePage(
  rulesRoot: string,
  rule: string,
  inEditor: RuleInEditor = { level: 'warning', deferred: false },
): RulePage {
  const file = path.join(rulesRoot, `${rule}.json`);
  if (!isRuleName(rule) || !existsSync(file))
    return { title: 'Rule', html: paragraph(`The rule “${rule}” has no page in this version of the extension.`) };
  try {
    const page = JSON.parse(readFileSync(file, 'utf8')) as BuiltRulePage;
    const link = `<nav class="rule-lesson"><a href="${escapeAttribute(page.openLesson)}">Learn why: open the lesson at ${escapeAttribute(page.lessonPlace)}</a></nav>`;
    const html = page.html.replace(
      /<p class="rule-in-editor" data-suggestions="(true|false)"><\/p>/,
      (_, suggestions: string) => inEditorLine(inEditor, suggestions === 'true'),
    );
    return { title: `Rule: ${rule}`, html: `${link}\n<article class="rule-page">${html}</article>` };
  } catch (error) {
    return {
      title: 'Rule',
      html: paragraph(
        `The page of the rule “${rule}” could not be read (${error instanceof Error ? error.message : String(error)}).`,
      ),
    };
  }
}

function paragraph(message: string): string {
  return `<p class="unavailable">${escapeAttribute(message)}</p>`;
}
