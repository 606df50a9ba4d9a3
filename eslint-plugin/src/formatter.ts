import path from 'node:path';

import type { ESLint } from 'eslint';

import type { IdempotencyRuleDocs } from './create-rule.js';

/**
 * An ESLint formatter that prints each finding with its rule, its documentation and the lesson
 * that teaches it: `eslint -f ./node_modules/eslint-plugin-idempotency/dist/formatter.js .`
 */

interface FormatterContext {
  cwd: string;
  rulesMeta: Record<string, { docs?: Partial<IdempotencyRuleDocs> } | undefined>;
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

export default function format(results: ESLint.LintResult[], context: FormatterContext): string {
  const lines: string[] = [];
  const perRule = new Map<string, number>();
  let files = 0;
  let total = 0;
  for (const result of results) {
    if (result.messages.length === 0) continue;
    files += 1;
    lines.push(path.relative(context.cwd, result.filePath) || result.filePath);
    for (const message of result.messages) {
      total += 1;
      const rule = message.ruleId ?? 'parse error';
      perRule.set(rule, (perRule.get(rule) ?? 0) + 1);
      const severity = message.severity === 2 ? 'error' : 'warning';
      lines.push(`  ${message.line}:${message.column}  ${severity}  ${rule}`);
      lines.push(`    ${message.message}`);
      const docs = message.ruleId ? context.rulesMeta[message.ruleId]?.docs : undefined;
      if (docs?.lesson) lines.push(`    Learn why: lesson ${docs.lesson}`);
      if (docs?.url) lines.push(`    Rule: ${docs.url}`);
    }
    lines.push('');
  }
  if (total === 0) return 'No findings.\n';
  const summary = [...perRule].map(([rule, count]) => `${rule} ${count}`).join(', ');
  lines.push(`${plural(total, 'finding')} in ${plural(files, 'file')} (${summary})`);
  return `${lines.join('\n')}\n`;
}
