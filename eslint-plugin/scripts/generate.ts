/**
 * Writes what lists the rules from the catalogue: the README's rule table and the editor
 * extension's per-rule settings. `npm run generate` rewrites them; a test fails when the
 * committed files differ from what this would write.
 *
 *   tsx eslint-plugin/scripts/generate.ts [--check]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { catalogue, ruleNames, type RuleName } from '../src/catalogue.js';
import { rules } from '../src/index.js';

const root = new URL('../../', import.meta.url);
export const generatedFiles = {
  readme: fileURLToPath(new URL('README.md', root)),
  extensionManifest: fileURLToPath(new URL('extension/package.json', root)),
};

const begin = '<!-- rules: generated from eslint-plugin/src/catalogue.ts by `npm run generate` -->';
const end = '<!-- end of generated rules -->';

/** `q1` → "question 1", `example-4-4` → "example 4.4", `tip-1` → "tip 1". */
export function placeLabel(anchor: string): string {
  const question = /^q(\d+)$/.exec(anchor);
  if (question) return `question ${question[1]}`;
  const [kind = anchor, ...numbers] = anchor.split('-');
  return numbers.length ? `${kind} ${numbers.join('.')}` : kind;
}

function tableRow(name: RuleName): string {
  const entry = catalogue[name];
  const places = [entry.lesson.anchor, ...entry.lesson.seeAlso].map(placeLabel).join(', ');
  const suggestions = rules[name].meta.hasSuggestions ? '💡' : '';
  const only = entry.config === 'strict' ? ' (`configs.strict`)' : '';
  return `| [\`${name}\`](eslint-plugin/docs/rules/${name}.md)${only} | ${entry.description} | ${suggestions} | ${places} |`;
}

/** The README with its rule table written from the catalogue, between the two markers. */
export function renderReadme(text: string): string {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`README.md has no generated rule table (the markers ${begin} and ${end})`);
  const table = ['| Rule | Reports | Suggestions | Lesson |', '| --- | --- | --- | --- |', ...ruleNames.map(tableRow)];
  return `${text.slice(0, from)}${begin}\n${table.join('\n')}\n${text.slice(to)}`;
}

const severities = ['error', 'warning', 'information', 'hint', 'off'];
const severityWords = [
  'Shown as an error',
  'Shown as a warning',
  'Shown as information',
  'Shown as a hint (no squiggle)',
  'The rule does not run',
];

interface Manifest {
  contributes: { configuration: { properties: Record<string, { properties?: Record<string, unknown> }> } };
}

/** The extension's manifest with one `idempotency.rules` setting per rule of the catalogue. */
export function renderExtensionManifest(text: string): string {
  const manifest = JSON.parse(text) as Manifest;
  const setting = manifest.contributes.configuration.properties['idempotency.rules'];
  if (!setting) throw new Error('extension/package.json has no idempotency.rules setting');
  setting.properties = Object.fromEntries(
    ruleNames.map((name) => [
      name,
      {
        type: 'string',
        enum: severities,
        enumDescriptions: severityWords,
        default: catalogue[name].config === 'strict' ? 'off' : 'warning',
        description: catalogue[name].description,
      },
    ]),
  );
  return `${JSON.stringify(manifest, null, 2)}\n`;
}

function main(): void {
  const check = process.argv.includes('--check');
  const stale: string[] = [];
  for (const [file, render] of [
    [generatedFiles.readme, renderReadme],
    [generatedFiles.extensionManifest, renderExtensionManifest],
  ] as const) {
    const text = readFileSync(file, 'utf8');
    const wanted = render(text);
    if (wanted === text) continue;
    if (check) stale.push(file);
    else writeFileSync(file, wanted);
  }
  if (stale.length) {
    console.error(`Out of date with the catalogue: ${stale.join(', ')}. Run npm run generate.`);
    process.exitCode = 1;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
