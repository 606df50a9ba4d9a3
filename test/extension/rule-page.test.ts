import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { loadRulePage } from '../../extension/src/lesson/rule-page.js';
import { ruleNames } from '../../extension/src/rules.js';

const rulesRoot = fileURLToPath(new URL('../../extension/dist/rules', import.meta.url));

describe("a rule's page in the panel", () => {
  it('is the rule’s documentation, rendered at build time, under a link to the lesson at its place', () => {
    const page = loadRulePage(rulesRoot, 'no-amount-effect-key');
    expect(page.title).toBe('Rule: no-amount-effect-key');
    expect(page.html).toMatch(
      /^<nav class="rule-lesson"><a href="command:idempotency\.openLesson\?%5B%22idempotent-consumers%23q4%22%5D">Learn why: open the lesson at Question 4<\/a><\/nav>/,
    );
    expect(page.html).toContain('<h1>idempotency/<wbr><span class="id">no-amount-effect-key</span></h1>');
    expect(page.html).toContain('<h2>Rule details</h2>');
    // A link to another rule's page opens that page in the panel, not a file or a web site.
    expect(page.html).toContain('href="command:idempotency.showRulePage?%5B%22no-delivery-id-effect-key%22%5D"');
    expect(page.html).not.toContain('.md"');
    expect(page.html).not.toContain('<script');
  });

  it('links to every other rule page it names, says how this editor reports the rule, and holds no emoji and no instructions for contributors', () => {
    for (const rule of ruleNames) {
      const page = loadRulePage(rulesRoot, rule, { level: 'information', deferred: false });
      expect(page.html, rule).not.toMatch(/\p{Extended_Pictographic}/u);
      expect(page.html, rule).not.toMatch(/npm run|in this repository|Reports an error/);
      expect(page.html, rule).not.toMatch(/href="(?!command:|https:)/);
      expect(page.html, rule).toMatch(
        /<p class="rule-in-editor">In this editor: reported as information \(idempotency\.rules\)\./,
      );
    }
    const checkThenInsert = loadRulePage(rulesRoot, 'no-check-then-insert', { level: 'error', deferred: false }).html;
    expect(checkThenInsert).toContain('href="command:idempotency.showRulePage?%5B%22no-claim-after-effect%22%5D"');
    expect(checkThenInsert).toContain(
      '<p class="rule-in-editor">In this editor: reported as an error (idempotency.rules). Its suggested repair is in the quick-fix menu (Ctrl+.). In CI, ESLint with the plugin\'s recommended config reports it as an error.</p>',
    );
    expect(loadRulePage(rulesRoot, 'no-amount-effect-key', { level: 'off', deferred: false }).html).toContain(
      'In this editor: turned off (idempotency.rules), so nothing is reported.',
    );
    expect(loadRulePage(rulesRoot, 'no-amount-effect-key', { level: 'warning', deferred: true }).html).toContain(
      "reported by your project's ESLint setup",
    );
  });

  it('says in words when a rule has no page, and looks up only the rules it knows', () => {
    expect(loadRulePage(rulesRoot, 'no-such-rule').html).toBe(
      '<p class="unavailable">The rule “no-such-rule” has no page in this version of the extension.</p>',
    );
    expect(loadRulePage(path.join(rulesRoot, 'missing'), 'no-check-then-insert').html).toContain('has no page');
  });
});
