/**
 * The packaged extension in a real VS Code (code-server 4.100.3, VS Code 1.100), driven through
 * headless Chromium: findings in the Problems panel, "Learn why" into the lesson panel, and an
 * answer run on PGlite inside that panel. Run with `npm run test:e2e`, which installs what this
 * needs and packages the .vsix first.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { LessonRunner, idempotentConsumers, idempotentConsumersLesson } from '@idempotency/lessons';
import { pgliteFromImage } from '@idempotency/lessons/node';
import { lessonLinks } from 'eslint-plugin-idempotency';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  copyOfExamples,
  packagedExtension,
  repositoryRoot,
  startCodeServer,
} from '../../extension/scripts/code-server.mjs';
import { expectedFindings, type ExpectedFinding } from '../support/example-markers.js';
import { lowContrastText } from './support/contrast.js';
import { Workbench } from './support/workbench.js';

/**
 * The editor works on a copy of the examples: it may save what the tests type, and the examples
 * are fixtures other tests read. The copy also holds a small project with a Prisma schema, for
 * findings that depend on another file.
 */
const { workspace: examples, remove: removeExamples } = copyOfExamples();
const billingSchema = `model Entry {
  id        String @id @default(cuid())
  invoiceId String
  accountId String
  cents     Int
  @@unique([invoiceId, accountId])
}
`;
const billingConsumer = `export async function book(prisma, invoiceId, accountId, cents) {
  const found = await prisma.entry.findFirst({ where: { invoiceId, accountId } });
  if (!found) await prisma.entry.create({ data: { invoiceId, accountId, cents } });
}
`;

function addBillingProject(): void {
  mkdirSync(path.join(examples, 'billing/prisma'), { recursive: true });
  mkdirSync(path.join(examples, 'billing/src'), { recursive: true });
  writeFileSync(path.join(examples, 'billing/package.json'), '{ "name": "billing", "private": true }\n');
  writeFileSync(path.join(examples, 'billing/prisma/schema.prisma'), billingSchema);
  writeFileSync(path.join(examples, 'billing/src/book.ts'), billingConsumer);
}
/** A consumer whose key an imported helper builds from the Kafka offset, read on the helper's line 2. */
const refundKeys = `export function refundKey(message: { offset: string }): string {
  const read = message.offset;
  return \`refund-\${read}\`;
}
`;
const refundsConsumer = `import { Kafka } from 'kafkajs';
import { PrismaClient } from '@prisma/client';
import { refundKey } from './keys.js';
import { toCents } from './money.js';

const prisma = new PrismaClient();

export async function start(consumer, stripe) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const refund = JSON.parse(message.value.toString());
      const known = await prisma.refund.findFirst({ where: { chargeId: refund.chargeId } });
      if (!known) await prisma.refund.create({ data: { chargeId: refund.chargeId, cents: toCents(refund.amount) } });
      await stripe.refunds.create({ charge: refund.chargeId }, { idempotencyKey: refundKey(message) });
    },
  });
}
`;

/** The refunds service: its schema (the unique charge settles the check) with three migrations, and two helpers. */
function addRefundsProject(): void {
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(examples, 'refunds', file)), { recursive: true });
    writeFileSync(path.join(examples, 'refunds', file), text);
  };
  write('package.json', '{ "name": "refunds", "private": true }\n');
  write(
    'prisma/schema.prisma',
    'model Refund {\n  id       String @id @default(cuid())\n  chargeId String @unique\n  cents    Int\n}\n',
  );
  const migrations = {
    '001_init':
      'CREATE TABLE "Refund" ("id" TEXT NOT NULL, "chargeId" TEXT NOT NULL, CONSTRAINT "Refund_pkey" PRIMARY KEY ("id"));',
    '002_cents': 'ALTER TABLE "Refund" ADD COLUMN "cents" INTEGER NOT NULL;',
    '003_charge_unique': 'CREATE UNIQUE INDEX "Refund_chargeId_key" ON "Refund"("chargeId");',
  };
  for (const [name, sql] of Object.entries(migrations)) write(`prisma/migrations/${name}/migration.sql`, `${sql}\n`);
  write('src/keys.ts', refundKeys);
  write('src/money.ts', 'export function toCents(amount: number): number {\n  return Math.round(amount * 100);\n}\n');
  write('src/refunds.ts', refundsConsumer);
}
const screenshots = path.join(repositoryRoot, 'test-results/e2e');
const stateDir = path.join(repositoryRoot, '.cache/e2e-state');

const chromiumFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

let server: Awaited<ReturnType<typeof startCodeServer>>;
let browser: Browser;
let page: Page;
let workbench: Workbench;
let expected: ExpectedFinding[];
let shown: Awaited<ReturnType<Workbench['problems']>> = [];
/** The quiz question "Learn why" opened, for the step that answers it. */
let openedQuestion: string | undefined;
/** What the panel showed as computed, for the step that reloads the window. */
let computedShown: string | null = null;

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

/** The Problems panel names a file's folder relative to the workspace (`.` for its root). */
function relativeFile(problem: { file: string; folder: string }): string {
  const folder = path.isAbsolute(problem.folder) ? path.relative(examples, problem.folder) : problem.folder;
  return folder === '.' || folder === '' ? problem.file : `${folder.split(path.sep).join('/')}/${problem.file}`;
}

function sourceFilesOf(root: string): string[] {
  return readdirSync(root).filter((name) => /\.(?:[cm]?[jt]s|[jt]sx)$/.test(name) && !name.startsWith('eslint.config'));
}

describe('Idempotency Lens in VS Code (code-server)', () => {
  beforeAll(async () => {
    expect(existsSync(packagedExtension), `${packagedExtension} is missing: run npm run package -w extension`).toBe(
      true,
    );
    rmSync(stateDir, { recursive: true, force: true });
    addBillingProject();
    addRefundsProject();
    mkdirSync(screenshots, { recursive: true });
    expected = expectedFindings(examples);
    expect(expected.length, 'the examples mark no finding with // flagged: <rule>').toBeGreaterThan(0);
    console.log(`examples: a copy in ${examples}, ${expected.length} marked findings`);

    // Edits stay unsaved until a test saves them: what the analysis reads of an open file is its buffer.
    server = await startCodeServer({ workspace: examples, stateDir, userSettings: { 'files.autoSave': 'off' } });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    workbench = new Workbench(page);
    await page.goto(server.workspaceUrl);
    await workbench.waitUntilReady();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    removeExamples();
  });

  it('says "Idempotency: starting…" in the status item until the first result of a check', async () => {
    await workbench.openFile('kafka-refunds.ts');
    // The checker is loading: the first file's status says so rather than nothing.
    expect(await workbench.languageStatus()).toMatch(/^Idempotency: starting…/);
    await screenshot('status-starting');
    await expect
      .poll(() => workbench.languageStatus(), { timeout: 90_000, interval: 1_000 })
      .toMatch(/^Idempotency: checked/);
    await page.mouse.move(0, 0);
  });

  it('shows each marked finding in the Problems panel on its file, line and rule, and none in unmarked files', async () => {
    const files = sourceFilesOf(examples);
    for (const file of files) await workbench.openFile(file);
    await workbench.showProblems();
    await workbench.runCommand('View: Toggle Maximized Panel');
    const key = (file: string, line: number, rule: string) => `${file}:${line} ${rule}`;
    const wanted = [...new Set(expected.map((finding) => key(finding.file, finding.line, finding.rule)))].sort();
    let seen: string[] = [];
    try {
      // Diagnostics arrive file by file as each is linted; wait until the panel holds every marked one.
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        shown = await workbench.problems();
        seen = [...new Set(shown.map((problem) => key(relativeFile(problem), problem.line, problem.rule)))].sort();
        if (wanted.every((finding) => seen.includes(finding))) break;
        await page.waitForTimeout(500);
      }
      await screenshot('problems-panel');
    } finally {
      await workbench.runCommand('View: Toggle Maximized Panel');
    }
    expect(
      wanted.filter((finding) => !seen.includes(finding)),
      'marked findings missing from the Problems panel',
    ).toEqual([]);
    const markedFiles = new Set(expected.map((finding) => finding.file));
    const inUnmarkedFiles = seen.filter((finding) => !markedFiles.has(finding.slice(0, finding.lastIndexOf(':'))));
    expect(inUnmarkedFiles, 'findings in example files that mark none').toEqual([]);
    const unmarked = seen.filter((finding) => !wanted.includes(finding));
    if (unmarked.length > 0)
      console.log(
        `findings on lines without a marker (the plugin's or the examples' to settle): ${unmarked.join('; ')}`,
      );
  });

  it("lists under a delivery-id finding the line its value was read on, as the diagnostic's related information", async () => {
    const finding = shown.find(
      (problem) => relativeFile(problem) === 'kafka-refunds.ts' && problem.rule === 'no-delivery-id-effect-key',
    );
    expect(finding, 'the kafka-refunds.ts finding is in the Problems panel').toBeDefined();
    const source = readFileSync(path.join(examples, 'kafka-refunds.ts'), 'utf8').split('\n');
    // The message leads with the fact, so a narrow Problems panel still shows it.
    expect(finding!.text).toMatch(/^Effect key from the delivery, not the operation: /);
    // The plugin's message names the line; the related information must point at that same line.
    const named = /on line (\d+)/.exec(finding!.text);
    expect(named, 'the message says on which line the value was read').not.toBeNull();
    await workbench.showProblems();
    // Other files' findings have related rows too, and the list draws only the rows in view: the
    // panel is maximised, and only this file's rows are read.
    await workbench.runCommand('View: Toggle Maximized Panel');
    try {
      await expect
        .poll(
          async () =>
            (await workbench.relatedRows('the value is read here'))
              .filter((row) => /\bkafka-refunds\.ts\b/.test(row.text))
              .map((row) => row.line),
          { timeout: 20_000 },
        )
        .toContain(Number(named![1]));
    } finally {
      await workbench.runCommand('View: Toggle Maximized Panel');
    }
    expect(source[Number(named![1]) - 1]).toMatch(/topic|partition|offset|message/);
  });

  it('lists under a finding whose key an imported helper builds the helper line where the value is read, and goes there on a click', async () => {
    await workbench.openFile('refunds/src/refunds.ts');
    await workbench.showProblems();
    await workbench.runCommand('View: Toggle Maximized Panel');
    const inHelper = async () =>
      (await workbench.relatedRows('the value is read here')).filter((row) => /\bkeys\.ts\b/.test(row.text));
    try {
      await expect
        .poll(async () => (await inHelper()).map((row) => [row.line, row.column]), { timeout: 30_000 })
        .toEqual([[2, 16]]);
      await screenshot('related-information-in-helper');
      await page
        .locator('.markers-panel .monaco-list-row', { hasText: 'the value is read here' })
        .filter({ hasText: /\bkeys\.ts\b/ })
        .click();
      await page.locator('.statusbar-item', { hasText: 'Ln 2, Col 16' }).first().waitFor({ timeout: 15_000 });
    } finally {
      // Opening an editor from the maximised panel gives the editors their room back by itself.
      const activeTab = page.locator('.editor-group-container.active .tabs-container .tab.active').first();
      if (!(await activeTab.isVisible())) await workbench.runCommand('View: Toggle Maximized Panel');
    }
    await page
      .locator('.editor-group-container.active .tabs-container .tab.active', { hasText: 'keys.ts' })
      .waitFor({ timeout: 15_000 });
  });

  it('says in the status item what the check read besides the file: the schema, its migrations, the helpers followed', async () => {
    await workbench.openFile('refunds/src/refunds.ts');
    await expect
      .poll(() => workbench.languageStatus(), { timeout: 30_000, interval: 1_000 })
      .toMatch(
        /^Idempotency: checked with schema\.prisma \+ 3 migrations, 2 helpers followed\s+Schema: refunds\/prisma\//,
      );
    const status = await workbench.languageStatus();
    expect(status).toContain('Helpers followed: refunds/src/keys.ts, refunds/src/money.ts.');
    expect(status).toContain('1 finding, last checked');
    await screenshot('status-what-was-read');
    await page.mouse.move(0, 0);
  });

  it("lists under the BullMQ worker's amount key the line where the amount is read", async () => {
    await workbench.openFile('bullmq-payouts.mjs');
    const source = readFileSync(path.join(examples, 'bullmq-payouts.mjs'), 'utf8').split('\n');
    await workbench.showProblems();
    await workbench.runCommand('View: Toggle Maximized Panel');
    try {
      await expect
        .poll(async () => (await workbench.relatedRows('the amount is read here')).map((row) => row.line), {
          timeout: 30_000,
        })
        .toEqual([source.findIndex((line) => line.includes('${cents}')) + 1]);
    } finally {
      await workbench.runCommand('View: Toggle Maximized Panel');
    }
  });

  it('re-checks an open consumer when its schema is edited, from the unsaved text of the schema', async () => {
    const consumer = 'billing/src/book.ts';
    const schema = 'billing/prisma/schema.prisma';
    const raced = (problems: Awaited<ReturnType<Workbench['problems']>>) =>
      problems.some(
        (problem) =>
          relativeFile(problem) === consumer && problem.rule === 'no-check-then-insert' && problem.line === 3,
      );
    await workbench.openFile(consumer);
    await workbench.openFile(schema);
    // The unique key covers the checked columns, so the database settles the race: no finding.
    // Deleting it, unsaved, makes the check decide again.
    const keyLine = billingSchema.split('\n').findIndex((line) => line.includes('@@unique')) + 1;
    await workbench.goToPosition(keyLine, 1);
    await page.keyboard.press('Shift+End');
    await page.keyboard.press('Delete');
    // The panel lists every open file's problems (the language server's too): maximised, it shows them all.
    const pollProblems = async (wanted: boolean) => {
      await workbench.showProblems();
      await workbench.runCommand('View: Toggle Maximized Panel');
      try {
        await expect.poll(async () => raced(await workbench.problems()), { timeout: 30_000 }).toBe(wanted);
        await screenshot(wanted ? 'schema-edited-finding' : 'schema-restored-no-finding');
      } finally {
        await workbench.runCommand('View: Toggle Maximized Panel');
      }
    };
    await pollProblems(true);
    expect(readFileSync(path.join(examples, schema), 'utf8'), 'the schema on disk is unchanged').toBe(billingSchema);
    // Taking the edit back takes the finding back.
    await workbench.openFile(schema);
    await workbench.goToPosition(keyLine, 1);
    await page.keyboard.press('Control+Z');
    // Back at the saved text, the editor has nothing unsaved to pass: the disk copy counts again.
    await expect
      .poll(() => page.locator('.editor-group-container.active .tab.active.dirty').count(), { timeout: 10_000 })
      .toBe(0);
    await pollProblems(false);
  });

  it('says once, in a notification, the log and the status item, which schema file it skipped and why', async () => {
    const consumer = 'billing/src/book.ts';
    const schema = 'billing/prisma/schema.prisma';
    await workbench.openFile(schema);
    await workbench.goToPosition(1, 1);
    // A merge left its markers in the schema (unsaved, in one edit).
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      billingSchema.replace(
        '  cents     Int\n',
        '<<<<<<< HEAD\n  cents     Int\n=======\n  cents     BigInt\n>>>>>>> main\n',
      ),
    );
    await workbench.openFile(consumer);
    const toast = page.locator('.notifications-toasts .notification-toast', { hasText: 'Idempotency Lens skipped' });
    await toast.waitFor({ timeout: 30_000 });
    expect(await toast.innerText()).toContain(
      'Idempotency Lens skipped billing/prisma/schema.prisma: it could not be read as a Prisma schema',
    );
    await screenshot('schema-skipped-notification');
    await expect
      .poll(() => workbench.languageStatus(), { timeout: 30_000, interval: 1_000 })
      .toMatch(/^Idempotency: schema skipped: schema\.prisma unreadable/);
    expect(await workbench.languageStatus()).toContain('prisma/schema.prisma could not be read as a Prisma schema');
    await screenshot('schema-skipped-status');
    // The log has it once, as a warning.
    const logs = readdirSync(path.join(stateDir, 'user-data/logs'), { recursive: true, encoding: 'utf8' }).filter(
      (file) => file.endsWith('Idempotency Lens.log'),
    );
    const skippedLines = logs
      .flatMap((file) => readFileSync(path.join(stateDir, 'user-data/logs', file), 'utf8').split('\n'))
      .filter((line) => line.includes('schema.prisma: it could not be read'));
    expect(skippedLines).toHaveLength(1);
    expect(skippedLines[0]).toMatch(
      /\[warning\] eslint-plugin-idempotency skipped .*billing\/prisma\/schema\.prisma: it could not be read as a Prisma schema/,
    );
    await workbench.runCommand('Notifications: Clear All Notifications');
    // Taking the edit back: the schema reads again, and the status no longer speaks of it.
    await workbench.openFile(schema);
    await workbench.runCommand('File: Revert File');
    await expect
      .poll(() => page.locator('.editor-group-container.active .tab.active.dirty').count(), { timeout: 10_000 })
      .toBe(0);
    await workbench.openFile(consumer);
    await expect
      .poll(() => workbench.languageStatus(), { timeout: 30_000, interval: 1_000 })
      .toMatch(/^Idempotency: checked with schema\.prisma\s+Schema: billing\/prisma\/schema\.prisma\./);
    await page.mouse.move(0, 0);
  });

  it('"Learn why" opens the lesson panel at the question that teaches the rule', async () => {
    // A finding whose rule is taught by a quiz question, so the next step can answer it.
    const target = expected.find((finding) =>
      lessonLinks[finding.rule as keyof typeof lessonLinks]?.anchor.startsWith('q'),
    );
    expect(target, 'no marked finding of a rule that a quiz question teaches').toBeDefined();
    const problem = shown.find(
      (each) => relativeFile(each) === target!.file && each.line === target!.line && each.rule === target!.rule,
    );
    expect(problem, `no problem shown for ${target!.file}:${target!.line}`).toBeDefined();
    const anchor = lessonLinks[target!.rule as keyof typeof lessonLinks].anchor;

    await workbench.openFile(target!.file);
    await workbench.goToPosition(problem!.line, problem!.column);
    try {
      await workbench.applyQuickFix('Learn why: open lesson');
    } finally {
      await screenshot('quick-fix-menu');
    }

    const lesson = workbench.lessonFrame();
    const place = lesson.locator(`[id="${anchor}"]`);
    await place.waitFor({ timeout: 60_000 });
    await expect.poll(() => place.getAttribute('aria-current'), { timeout: 15_000 }).toBe('location');
    // The place is scrolled into view, not merely somewhere in the page.
    const top = await place.evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(200);
    // The lesson's text is there at once, whatever the database is doing.
    expect(await lesson.locator('h1').textContent()).toBe(idempotentConsumersLesson.title);
    await screenshot(`lesson-at-${anchor}`);
    openedQuestion = anchor;
  });

  it('boots PGlite inside the panel and reports how long it took', async () => {
    const body = workbench.lessonFrame().locator('body');
    await expect.poll(() => body.getAttribute('data-database'), { timeout: 60_000 }).toMatch(/^(ready|failed)$/);
    const status = await workbench.lessonFrame().locator('#database-status').textContent();
    expect(await body.getAttribute('data-database'), `database status: ${status}`).toBe('ready');
    const readyMs = Number(await body.getAttribute('data-database-ready-ms'));
    const assetsMs = Number(await body.getAttribute('data-database-assets-ms'));
    console.log(
      `lesson panel ready to run (PGlite booted in the webview): ${readyMs} ms [target <= 2000 ms]; files fetched and compiled in ${assetsMs} ms, PostgreSQL started in ${readyMs - assetsMs} ms`,
    );
    expect(readyMs).toBeGreaterThan(0);
  });

  it('runs the chosen answer on PGlite inside the panel and shows the state PostgreSQL computed beside it', async () => {
    expect(openedQuestion).toBeDefined();
    const anchor = openedQuestion!;
    const question = idempotentConsumersLesson.questions.find((each) => each.anchor === anchor)!;
    // The learner deliberately picks a wrong answer, so the panel must show a difference.
    const choice = question.options.find((option) => option.id !== question.answer)!;
    const lesson = workbench.lessonFrame();
    const article = lesson.locator(`[id="${anchor}"]`);
    await article.locator(`input[value="${choice.id}"]`).check();
    const run = article.locator(`button[data-run-question="${anchor}"]`);
    await expect.poll(() => run.isEnabled(), { timeout: 60_000 }).toBe(true);
    await run.click();

    const verdict = article.locator(`[data-result-for="${anchor}"]`);
    await verdict.locator('.judgement').waitFor({ timeout: 60_000 });
    const predicted = await verdict.locator('[data-prediction]').textContent();
    const computed = await verdict.locator('[data-computed]').textContent();
    await article.scrollIntoViewIfNeeded();
    await screenshot(`lesson-${anchor}-answered`);

    // What the panel computed must be what the same runner computes here, in Node, on PGlite.
    const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
    try {
      const check = await runner.checkQuestion(anchor);
      const run = check.options[choice.id];
      const expectedState = run.ok ? run.text : '';
      expect(predicted).toBe(choice.label);
      expect(computed).toBe(expectedState);
      expect(computed).toMatch(/^(\w+=\S+ ?)+$/);
      expect(await verdict.locator('.judgement').textContent()).toContain(
        `the database proves ${check.provenRight.join(', ')}`,
      );
      computedShown = computed;
    } finally {
      await runner.close();
    }
  });

  it('keeps the SQL behind the answer one click away, and runs SQL typed into an example console on its database', async () => {
    expect(openedQuestion).toBeDefined();
    const lesson = workbench.lessonFrame();
    const transcript = lesson.locator(`[data-evidence-for="${openedQuestion}"] details.transcript`).first();
    await transcript.waitFor({ timeout: 30_000 });
    expect(await transcript.getAttribute('open')).toBeNull();
    await transcript.locator('summary').click();
    expect(await transcript.locator('pre').textContent()).toMatch(/worker A {2}BEGIN\n/);

    // Example 4.3's run leaves the payout worker B applied; a statement typed in its console must find that row.
    const example = lesson.locator('[id="example-4-3"]');
    await example.locator('details.sql-console summary').click();
    const submit = example.locator('form[data-console-for="example-4-3"] button[type="submit"]');
    await expect.poll(() => submit.isEnabled(), { timeout: 60_000 }).toBe(true);
    await example.locator('textarea').fill('SELECT effect_id, amount FROM effects;');
    await submit.click();
    const output = example.locator('[data-console-output-for="example-4-3"]');
    await expect.poll(() => output.textContent(), { timeout: 60_000 }).toContain('(1 row)');
    expect(await output.textContent()).toMatch(/payout-cedar +\| 250/);
    await example.locator('textarea').fill('SELECT nope FROM effects;');
    await submit.click();
    await expect.poll(() => output.textContent(), { timeout: 60_000 }).toBe('ERROR: column "nope" does not exist');
    await example.scrollIntoViewIfNeeded();
    await screenshot('lesson-example-4-3-console');
  });

  it('labels the results of every question alike, and a new choice clears the old verdict', async () => {
    const lesson = workbench.lessonFrame();
    const terms: Record<string, string[]> = {};
    for (const question of idempotentConsumersLesson.questions.filter((each) => each.anchor !== openedQuestion)) {
      const article = lesson.locator(`[id="${question.anchor}"]`);
      const wrong = question.options.find((option) => option.id !== question.answer)!;
      await article.locator(`input[value="${wrong.id}"]`).check();
      await article.locator(`button[data-run-question="${question.anchor}"]`).click();
      const verdict = article.locator(`[data-result-for="${question.anchor}"]`);
      await verdict.locator('.judgement').waitFor({ timeout: 60_000 });
      terms[question.anchor] = await verdict.locator('dt').allTextContents();
      // Choosing again: the verdict was about the other answer, so it goes.
      await article.locator(`input[value="${question.answer}"]`).check();
      await expect.poll(() => verdict.locator('.judgement').count(), { timeout: 5_000 }).toBe(0);
    }
    const opened = workbench.lessonFrame().locator(`[data-result-for="${openedQuestion}"] dt`);
    terms[openedQuestion!] = await opened.allTextContents();
    expect(Object.keys(terms).length).toBe(idempotentConsumersLesson.questions.length);
    for (const [anchor, shown] of Object.entries(terms)) {
      expect(shown, `result labels of ${anchor}`).toEqual([
        'Your answer',
        'PostgreSQL computed for it',
        'PostgreSQL computed for the right answer',
      ]);
    }
  });

  it('"Learn why" on a lesson panel hidden behind another editor lands at the finding\'s place, progress intact', async () => {
    const target = expected.find(
      (finding) => lessonLinks[finding.rule as keyof typeof lessonLinks]?.anchor !== openedQuestion,
    );
    expect(target, 'no marked finding of a rule taught at another place than the first').toBeDefined();
    const problem = shown.find(
      (each) => relativeFile(each) === target!.file && each.line === target!.line && each.rule === target!.rule,
    )!;
    const anchor = lessonLinks[target!.rule as keyof typeof lessonLinks].anchor;
    // The panel's group is the active one: the file opens there, in front of the panel.
    await workbench.openFile(target!.file);
    await expect.poll(() => page.locator('iframe.webview.ready').count(), { timeout: 15_000 }).toBe(0);
    await workbench.goToPosition(problem.line, problem.column);
    await workbench.applyQuickFix('Learn why: open lesson');

    const place = workbench.lessonFrame().locator(`[id="${anchor}"]`);
    await place.waitFor({ timeout: 60_000 });
    await expect.poll(() => place.getAttribute('aria-current'), { timeout: 15_000 }).toBe('location');
    const top = await place.evaluate((element) => element.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(-1);
    expect(top).toBeLessThan(200);
    // The page was built again; the answer given before it was hidden is still there.
    expect(
      await workbench.lessonFrame().locator(`[data-result-for="${openedQuestion}"] [data-computed]`).textContent(),
    ).toBe(computedShown);
    await screenshot(`lesson-from-hidden-at-${anchor}`);
  });

  it('keeps the answer and the computed state when the window reloads, and follows a dark theme', async () => {
    expect(computedShown).not.toBeNull();
    // Reload the way a person does, through the command: the workbench then saves its layout (and
    // with it the open panel) before it goes. A bare browser reload can outrun that save.
    const reloaded = page.waitForEvent('load', { timeout: 90_000 });
    await workbench.runCommand('Developer: Reload Window');
    await reloaded;
    await workbench.waitUntilReady();
    // VS Code restores the panel through the extension's serializer; the page restores its own state.
    const verdict = workbench.lessonFrame().locator(`[data-result-for="${openedQuestion}"]`);
    try {
      await verdict.locator('[data-computed]').waitFor({ state: 'attached', timeout: 60_000 });
    } finally {
      await screenshot('after-reload');
    }
    expect(await verdict.locator('[data-computed]').textContent()).toBe(computedShown);
    const background = () =>
      workbench
        .lessonFrame()
        .locator('body')
        .evaluate((body) => getComputedStyle(body).backgroundColor);
    const lightBackground = await background();
    await workbench.runCommand('Preferences: Toggle between Light/Dark Themes');
    await expect.poll(background, { timeout: 15_000 }).not.toBe(lightBackground);
    await verdict.scrollIntoViewIfNeeded();
    await screenshot('lesson-restored-dark');
  });

  it('keeps every text of the panel at WCAG AA contrast in dark, light and high-contrast themes', async () => {
    const lesson = workbench.lessonFrame();
    const body = lesson.locator('body');
    await expect.poll(() => body.getAttribute('data-database'), { timeout: 60_000 }).toBe('ready');
    // A right verdict too, beside the wrong one answered before.
    const question = idempotentConsumersLesson.questions.find((each) => each.anchor !== openedQuestion)!;
    const article = lesson.locator(`[id="${question.anchor}"]`);
    await article.locator(`input[value="${question.answer}"]`).check();
    await article.locator(`button[data-run-question="${question.anchor}"]`).click();
    await article.locator('.judgement.right').waitFor({ timeout: 60_000 });

    const themeKind = () =>
      body.evaluate((element) => [...element.classList].find((name) => name.startsWith('vscode-')) ?? '');
    const measure = async (expectedKind: string) => {
      await expect.poll(themeKind, { timeout: 15_000 }).toBe(expectedKind);
      await page.waitForTimeout(300); // The workbench hands the webview its new colours in one go; let it paint.
      const { measured, failures } = await body.evaluate(lowContrastText);
      console.log(`contrast in ${expectedKind}: ${measured} pieces of text measured, ${failures.length} under 4.5:1`);
      expect(measured).toBeGreaterThan(200);
      expect(failures, `text under 4.5:1 in ${expectedKind}`).toEqual([]);
      await screenshot(`contrast-${expectedKind}`);
    };
    await measure('vscode-dark');
    await workbench.runCommand('Preferences: Toggle between Light/Dark Themes');
    await measure('vscode-light');
    await workbench.setColorTheme('Dark High Contrast');
    await measure('vscode-high-contrast');
    await workbench.setColorTheme('Light High Contrast');
    await measure('vscode-high-contrast-light');
    await workbench.setColorTheme('Light Modern');
    await expect.poll(themeKind, { timeout: 15_000 }).toBe('vscode-light');
  });

  it('reads well in a 260 px wide panel: nothing scrolls sideways, one column of contents, ids whole, a one-line status', async () => {
    await workbench.setColorTheme('Light Modern');
    await workbench.runCommand('View: Toggle Primary Side Bar Visibility');
    const lesson = workbench.lessonFrame();
    const width = () => lesson.locator('body').evaluate(() => document.documentElement.clientWidth);
    // The panel gets about half of what the window leaves to the editors.
    let viewport = 760;
    for (let attempt = 0; attempt < 4; attempt += 1) {
      await page.setViewportSize({ width: viewport, height: 900 });
      await page.waitForTimeout(500);
      const shown = await width();
      if (Math.abs(shown - 260) <= 6) break;
      viewport += 2 * (260 - shown);
    }
    try {
      expect(Math.abs((await width()) - 260)).toBeLessThanOrEqual(6);
      const layout = await lesson.locator('body').evaluate(() => {
        const contents = [...document.querySelectorAll('nav.contents li')].map((item) =>
          Math.round(item.getBoundingClientRect().left),
        );
        const ids = [...document.querySelectorAll<HTMLElement>('.id, .option-id')];
        const status = document.getElementById('database-status')!;
        return {
          contentsColumns: new Set(contents).size,
          contentsItems: contents.length,
          overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
          // Elements that reach past the panel's right edge (inside a box that scrolls on its own is fine).
          wider: [...document.body.querySelectorAll<HTMLElement>('*')]
            .filter((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
            .filter((element) => !element.closest('pre, table, .console-output'))
            .map(
              (element) =>
                `${element.tagName.toLowerCase()}.${element.className}: ${Math.round(element.getBoundingClientRect().width)} px`,
            )
            .slice(0, 10),
          ids: ids.length,
          brokenIds: ids.filter((id) => id.getClientRects().length > 1).map((id) => id.textContent),
          statusLines: Math.round((status.clientHeight - 8) / parseFloat(getComputedStyle(status).lineHeight)),
        };
      });
      console.log(`narrow panel: ${JSON.stringify(layout)}`);
      expect(layout.contentsItems).toBeGreaterThan(5);
      expect(layout.contentsColumns).toBe(1);
      expect(layout.overflow).toBeLessThanOrEqual(0);
      expect(layout.wider, 'elements wider than the panel').toEqual([]);
      expect(layout.ids).toBeGreaterThan(20);
      expect(layout.brokenIds).toEqual([]);
      expect(layout.statusLines).toBe(1);
      const { failures } = await lesson.locator('body').evaluate(lowContrastText);
      expect(failures, 'text under 4.5:1 in the narrow light panel').toEqual([]);
      await lesson.locator(`[id="${openedQuestion}"]`).scrollIntoViewIfNeeded();
      await screenshot('lesson-narrow-light');
    } finally {
      await page.setViewportSize({ width: 1440, height: 900 });
      await page.waitForTimeout(500);
      await workbench.runCommand('View: Toggle Primary Side Bar Visibility');
    }
  });

  it("opens the rule page, offline, from a finding's code link, and from there the lesson at its place", async () => {
    const rule = 'no-check-then-insert';
    const anchor = lessonLinks[rule].anchor;
    await workbench.showProblems();
    await page.locator('.markers-panel .monaco-list-row a', { hasText: rule }).first().click();
    const lesson = workbench.lessonFrame();
    await expect.poll(() => lesson.locator('h1').textContent(), { timeout: 30_000 }).toBe(`idempotency/${rule}`);
    const loaded = await lesson.locator('body').evaluate(() => ({
      resources: performance.getEntriesByType('resource').map((entry) => entry.name),
    }));
    // Everything the page loaded is one of the extension's own files, served by the editor.
    expect(loaded.resources.length).toBeGreaterThan(0);
    expect(
      loaded.resources.filter(
        (url) => !/^https:\/\/[^/]+\.vscode-resource\.vscode-cdn\.net\/.*\/dist\/webview\//.test(url),
      ),
    ).toEqual([]);
    expect(await lesson.locator('h2', { hasText: 'Rule details' }).count()).toBe(1);
    // The page says what this editor does (the rules are warnings by default), with no emoji and no repository scripts.
    const text = await lesson.locator('body').innerText();
    expect(text).toContain(
      'In this editor: reported as a warning (idempotency.rules). Its suggested repair is in the quick-fix menu',
    );
    expect(text).not.toMatch(/\p{Extended_Pictographic}|npm run|Reports an error/u);
    await screenshot(`rule-page-${rule}`);
    // A link to another rule's page opens that page.
    await lesson.locator('article a', { hasText: 'no-claim-after-effect' }).first().click();
    await expect
      .poll(() => workbench.lessonFrame().locator('h1').textContent(), { timeout: 30_000 })
      .toBe('idempotency/no-claim-after-effect');
    await page.keyboard.press('Escape');
    await workbench.showProblems();
    await page.locator('.markers-panel .monaco-list-row a', { hasText: rule }).first().click();
    await expect
      .poll(() => workbench.lessonFrame().locator('h1').textContent(), { timeout: 30_000 })
      .toBe(`idempotency/${rule}`);

    await workbench.lessonFrame().locator('.rule-lesson a').click();
    const place = workbench.lessonFrame().locator(`[id="${anchor}"]`);
    await place.waitFor({ timeout: 60_000 });
    await expect.poll(() => place.getAttribute('aria-current'), { timeout: 15_000 }).toBe('location');
    expect(await workbench.lessonFrame().locator('h1').textContent()).toBe(idempotentConsumersLesson.title);
  });

  it('"Learn why" in the hover of a finding opens the lesson at its place, as the quick fix does; "Show rule page" opens its rule page', async () => {
    const target = expected.find((finding) => finding.rule !== 'no-check-then-insert')!;
    const problem = shown.find(
      (each) => relativeFile(each) === target.file && each.line === target.line && each.rule === target.rule,
    )!;
    const anchor = lessonLinks[target.rule as keyof typeof lessonLinks].anchor;
    await workbench.openFile(target.file);
    await workbench.goToPosition(problem.line, problem.column);
    const learn = page.locator('.monaco-hover a', { hasText: 'Learn why: open lesson' });
    await workbench.showHover(learn);
    await learn.click();
    const place = workbench.lessonFrame().locator(`[id="${anchor}"]`);
    await place.waitFor({ timeout: 60_000 });
    await expect.poll(() => place.getAttribute('aria-current'), { timeout: 15_000 }).toBe('location');

    await workbench.openFile(target.file);
    await workbench.goToPosition(problem.line, problem.column);
    const rulePage = page.locator('.monaco-hover a', { hasText: 'Show rule page' });
    await workbench.showHover(rulePage);
    await rulePage.click();
    await expect
      .poll(() => workbench.lessonFrame().locator('h1').textContent(), { timeout: 30_000 })
      .toBe(`idempotency/${target.rule}`);
    // The rule's id in the title stays on one line.
    expect(
      await workbench
        .lessonFrame()
        .locator('h1 .id')
        .evaluate((id) => id.getClientRects().length),
    ).toBe(1);
    await screenshot(`rule-page-from-hover-${target.rule}`);
  });

  it('"Practise" in the hover of a finding opens its exercise; a wrong handler shows the schedule that breaks it, and the model solution, one click away after that try, passes', async () => {
    const target = expected[0];
    const problem = shown.find(
      (each) => relativeFile(each) === target.file && each.line === target.line && each.rule === target.rule,
    )!;
    const exercise = idempotentConsumers.exercises.find((each) => each.rule === target.rule)!;
    await workbench.openFile(target.file);
    await workbench.goToPosition(problem.line, problem.column);
    const practise = page.locator('.monaco-hover a', { hasText: 'Practise: open exercise' });
    await workbench.showHover(practise);
    await practise.click();
    const article = workbench.lessonFrame().locator(`[id="exercise-${exercise.id}"]`);
    await article.waitFor({ timeout: 60_000 });
    await expect.poll(() => article.getAttribute('aria-current'), { timeout: 15_000 }).toBe('location');

    const textarea = article.locator('textarea');
    const check = article.locator('button[type="submit"]');
    const model = article.locator(`button[data-exercise-model="${exercise.id}"]`);
    const result = article.locator(`[data-exercise-result-for="${exercise.id}"]`);
    expect(await textarea.inputValue()).toBe(exercise.starter);
    expect(await model.isDisabled()).toBe(true);
    await expect.poll(() => check.isEnabled(), { timeout: 60_000 }).toBe(true);

    // What the panel computes must be what the same checker computes here, in Node, on PGlite.
    const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
    try {
      const starter = await runner.checkExercise(exercise.id, exercise.starter);
      const solved = await runner.checkExercise(exercise.id, exercise.model);
      if (!starter.ok || !solved.ok) throw new Error('the checker could not read the starter or the model');
      const brokenInNode = starter.runs.filter((run) => run.broken !== null).map((run) => run.schedule);
      expect(brokenInNode).toContain(exercise.wrong[0].fails);

      await check.click();
      const judgement = result.locator('.judgement');
      await judgement.waitFor({ timeout: 60_000 });
      expect(await judgement.textContent()).toBe(`Broken by: ${brokenInNode.join(', ')}.`);
      const broken = result.locator(`li[data-schedule="${exercise.wrong[0].fails}"]`);
      expect(await broken.getAttribute('data-broken')).toBe('yes');
      expect(await broken.locator('code[data-state]').textContent()).toBe(
        starter.runs.find((run) => run.schedule === exercise.wrong[0].fails)!.state,
      );
      expect(await broken.locator('.hint').textContent()).toBe(`Hint: ${exercise.hints[exercise.wrong[0].fails]}`);
      await article.scrollIntoViewIfNeeded();
      await screenshot(`exercise-${exercise.id}-broken`);

      // The try unlocks the model solution; put into the editor and checked, it passes every schedule.
      await expect.poll(() => model.isEnabled(), { timeout: 5_000 }).toBe(true);
      await model.click();
      expect(await article.locator('.exercise-model pre').textContent()).toBe(exercise.model);
      await article.locator(`button[data-exercise-use-model="${exercise.id}"]`).click();
      expect(await textarea.inputValue()).toBe(exercise.model);
      await check.click();
      await expect
        .poll(() => judgement.textContent(), { timeout: 60_000 })
        .toBe('Passed: every schedule left the right state.');
      expect(await result.locator('li[data-broken="no"]').count()).toBe(exercise.schedules.length);
      expect(await result.locator('code[data-state]').allTextContents()).toEqual(solved.runs.map((run) => run.state));
      await screenshot(`exercise-${exercise.id}-passed`);
    } finally {
      await runner.close();
    }
  });

  it("saves the editor's edits in its copy of the examples, never in the repository", async () => {
    await workbench.openFile('amqp-ledger.js');
    await workbench.goToPosition(1, 1);
    await page.keyboard.type('// an edit saved in the editor\n');
    await page.keyboard.press('Control+S');
    await expect
      .poll(
        () =>
          readFileSync(path.join(examples, 'amqp-ledger.js'), 'utf8').startsWith('// an edit saved in the editor\n'),
        { timeout: 15_000 },
      )
      .toBe(true);
    const status = execFileSync('git', ['status', '--porcelain', '--', 'eslint-plugin/examples'], {
      cwd: repositoryRoot,
      encoding: 'utf8',
    });
    expect(status, 'git status of the examples in the repository').toBe('');
  });

  it('"Disable for this line" writes " -- reason" after the rule id, with the reason selected to type over', async () => {
    const target =
      expected.find((finding) => finding.file === 'sqs-receipts.cjs') ??
      expected.find((finding) => finding.file !== 'amqp-ledger.js')!;
    const problem = shown.find(
      (each) => relativeFile(each) === target.file && each.line === target.line && each.rule === target.rule,
    )!;
    await workbench.openFile(target.file);
    await workbench.goToPosition(problem.line, problem.column);
    await workbench.applyQuickFix(`Disable ${target.rule} for this line`);
    await page.keyboard.type('replayed by hand after review');
    await page.keyboard.press('Escape');
    await page.keyboard.press('Control+S');
    const file = path.join(examples, target.file);
    await expect
      .poll(() => readFileSync(file, 'utf8').split('\n')[target.line - 1]?.trim(), { timeout: 15_000 })
      .toBe(`// eslint-disable-next-line idempotency/${target.rule} -- replayed by hand after review`);
    await screenshot('disabled-with-reason');
  });

  it('checks the whole workspace on command, with a progress notification, and lists the findings of files no editor has open', async () => {
    // Files written after the editor started, never opened: only the workspace check can see them.
    const source = readFileSync(path.join(examples, 'kafka-refunds.ts'), 'utf8');
    const copies = ['consumer-1.ts', 'consumer-2.ts', 'consumer-3.ts'];
    mkdirSync(path.join(examples, 'bulk'), { recursive: true });
    for (const copy of copies) writeFileSync(path.join(examples, 'bulk', copy), source);
    const marked = expected.filter((finding) => finding.file === 'kafka-refunds.ts');
    expect(marked.length).toBeGreaterThan(0);
    await workbench.runCommand('Idempotency: Check Workspace');
    await page
      .locator('.notifications-toasts .notification-toast', { hasText: 'Idempotency: checking the workspace' })
      .waitFor({ timeout: 15_000 });
    await screenshot('workspace-check-progress');
    const key = (file: string, line: number, rule: string) => `${file}:${line} ${rule}`;
    const wanted = copies
      .flatMap((copy) => marked.map((finding) => key(`bulk/${copy}`, finding.line, finding.rule)))
      .sort();
    await workbench.showProblems();
    await workbench.runCommand('View: Toggle Maximized Panel');
    try {
      await expect
        .poll(
          async () => {
            const seen = (await workbench.problems()).map((problem) =>
              key(relativeFile(problem), problem.line, problem.rule),
            );
            return wanted.filter((finding) => !seen.includes(finding));
          },
          { timeout: 90_000, interval: 1_000 },
        )
        .toEqual([]);
      await screenshot('workspace-check-problems');
    } finally {
      await workbench.runCommand('View: Toggle Maximized Panel');
    }
  });
});
