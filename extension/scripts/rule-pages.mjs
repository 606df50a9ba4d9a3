// Renders each rule's page (eslint-plugin/docs/rules/*.md) into dist/rules/<rule>.json, with the
// lesson's own Markdown renderer (raw HTML escaped, unsafe link targets refused), so the panel
// shows it offline. A link to another rule's page becomes a link that opens that page in the panel,
// and the title may wrap after the plugin's name but never inside the rule's. The line that says how
// the recommended ESLint config reports the rule (with its emoji, which not every machine has a font
// for) gives way to a marker: the panel says there what this editor does, from its settings.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { renderMarkdown } from '@idempotency/lessons/markdown';
import { lessonTarget } from 'eslint-plugin-idempotency';

const require = createRequire(import.meta.url);

export function renderRulePages(dist, docsRoot) {
  const output = path.join(dist, 'rules');
  mkdirSync(output, { recursive: true });
  const lesson = JSON.parse(readFileSync(require.resolve('@idempotency/lessons/idempotent-consumers.json'), 'utf8'));
  const placeTitles = new Map(lesson.places.map((place) => [`${lesson.id}#${place.anchor}`, place.title]));
  for (const file of readdirSync(docsRoot).filter((name) => name.endsWith('.md'))) {
    const rule = path.basename(file, '.md');
    const html = renderMarkdown(readFileSync(path.join(docsRoot, file), 'utf8'))
      .replace(
        /href="(?:\.\/)?([a-z0-9-]+)\.md(?:#[^"]*)?"/g,
        (_, other) => `href="${commandUri('idempotency.showRulePage', other)}"`,
      )
      .replace(
        /<p>✅ In <code>configs\.(?:recommended|strict)<\/code>[^<]*?(?:<code>[^<]*<\/code>[^<]*?)*(💡 Has suggestions\.)?<\/p>/,
        (_, suggestions) => `<p class="rule-in-editor" data-suggestions="${Boolean(suggestions)}"></p>`,
      )
      .replace(
        /<h1>idempotency\/([a-z0-9-]+)<\/h1>/,
        (_, name) => `<h1>idempotency/<wbr><span class="id">${name}</span></h1>`,
      );
    const target = lessonTarget(rule);
    const page = {
      rule,
      html,
      lesson: target,
      lessonPlace: placeTitles.get(target) ?? target,
      openLesson: commandUri('idempotency.openLesson', target),
    };
    writeFileSync(path.join(output, `${rule}.json`), JSON.stringify(page));
  }
}

function commandUri(command, argument) {
  return `command:${command}?${encodeURIComponent(JSON.stringify([argument]))}`;
}
