/**
 * The workspace as a whole in a real VS Code (code-server): the Entry Points view on the e2e
 * workspace (the plugin's examples and a webhook), then the whole-workspace check on 2,000 files
 * generated into it, with typing in an open file while it runs, and its cancellation.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  copyOfExamples,
  packagedExtension,
  repositoryRoot,
  startCodeServer,
} from '../../extension/scripts/code-server.mjs';
import { writeGeneratedWorkspace } from '../support/generated-workspace.js';
import { addWebhook, webhookFile } from './support/entry-point-workspace.js';
import { Workbench } from './support/workbench.js';

const { workspace, remove } = copyOfExamples();
const screenshots = path.join(repositoryRoot, 'test-results/e2e');
const stateDir = path.join(repositoryRoot, '.cache/e2e-workspace-state');
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

async function screenshot(name: string): Promise<void> {
  await page.screenshot({ path: path.join(screenshots, `${name}.png`) });
}

/** The lines of the extension's log that include `text`. */
function logLines(text: string): string[] {
  const logs = path.join(stateDir, 'user-data/logs');
  return readdirSync(logs, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('Idempotency Lens.log'))
    .flatMap((file) => readFileSync(path.join(logs, file), 'utf8').split('\n'))
    .filter((line) => line.includes(text));
}

describe('the workspace as a whole in VS Code (code-server)', () => {
  beforeAll(async () => {
    rmSync(stateDir, { recursive: true, force: true });
    mkdirSync(screenshots, { recursive: true });
    addWebhook(workspace);
    server = await startCodeServer({
      workspace,
      stateDir,
      vsix: packagedExtension,
      userSettings: { 'files.autoSave': 'off', 'idempotency.workspaceCheck.exclude': ['**/generated/**'] },
    });
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
    page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    workbench = new Workbench(page);
    await page.goto(server.workspaceUrl);
    await workbench.waitUntilReady();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    remove();
  });

  const entryRows = () =>
    page
      .locator('.pane', { has: page.locator('.pane-header', { hasText: 'Entry Points' }) })
      .locator('.monaco-list-row');
  /** Each row of the view as it reads: its label, then its description. */
  const entryTexts = () =>
    entryRows().evaluateAll((rows) =>
      rows.map((row) =>
        [...row.querySelectorAll('.label-name, .label-description')]
          .map((part) => part.textContent?.trim())
          .filter(Boolean)
          .join(' '),
      ),
    );

  it('lists every entry point of the workspace by kind and library, with what settles its repeats', async () => {
    // The extension starts with the first JavaScript or TypeScript file opened.
    await workbench.openFile('kafka-refunds.ts');
    // The view's rows are drawn only where they show: the file tree is folded away to give it room.
    const folders = page.locator('.pane-header[aria-label^="Explorer Section"]');
    if ((await folders.getAttribute('aria-expanded')) === 'true') await folders.click();
    await workbench.runCommand('Focus on Entry Points View');
    await expect
      .poll(entryTexts, {
        timeout: 90_000,
        interval: 1_000,
      })
      .toEqual([
        'Consumers 3',
        'amqplib 1',
        "channel.consume('ledger') amqp-ledger.js:15 · check of stored state · 2 findings",
        'aws-sqs 1',
        'poll sqs-receipts.cjs:16 · unique key',
        'kafkajs 1',
        'eachMessage kafka-refunds.ts:17 · provider idempotency key · 1 finding',
        'Webhooks 1',
        'stripe 1',
        `POST ${webhookFile}:7 · inbox claim`,
        'Jobs 2',
        'bullmq 2',
        "new Worker('payouts') bullmq-payouts.mjs:9 · unique key · 2 findings",
        "new Worker('sales') inbox-done-right.ts:14 · inbox claim",
      ]);
    await screenshot('entry-points-view');
  });

  it("shows an entry point's boundary and findings under it, and a click opens its handler", async () => {
    const kafka = entryRows().filter({ hasText: 'eachMessage' });
    await kafka.locator('.monaco-tl-twistie').click();
    await expect
      .poll(entryTexts)
      .toEqual(
        expect.arrayContaining([
          'Repeats: provider idempotency key: stripe.refunds.create()',
          expect.stringMatching(/^no-delivery-id-effect-key Effect key from the delivery/) as unknown,
        ]),
      );
    await screenshot('entry-points-expanded');

    // The handler is the function itself: after `export`, at `async`.
    await entryRows().filter({ hasText: 'POST' }).click();
    try {
      await page
        .locator('.editor-group-container.active .tabs-container .tab.active', { hasText: 'stripe-webhook.ts' })
        .waitFor({ timeout: 15_000 });
      await page.locator('.statusbar-item', { hasText: 'Ln 7, Col 8' }).first().waitFor({ timeout: 15_000 });
    } finally {
      await screenshot('entry-point-opened');
    }
  });

  it('checks 2,000 files with a progress notification, keeps an open file checked as it is typed in, and stops on Cancel', async () => {
    const generated = writeGeneratedWorkspace(workspace, 2000);
    const total = generated.files.length - generated.excluded.length;
    await workbench.openFile('kafka-refunds.ts');
    // The panel is to fill with the check's findings; its filter keeps to the open file's, set
    // before the check starts so that reading them takes no time from it.
    const filterProblems = async (glob: string) => {
      await workbench.showProblems();
      // Ctrl+F in the Problems panel goes to its filter.
      await page.keyboard.press('Control+F');
      await page.keyboard.press('Control+A');
      await page.keyboard.type(glob);
    };
    const typedFileProblems = async () =>
      (await workbench.problems())
        .filter((problem) => problem.file === 'kafka-refunds.ts')
        .map((problem) => `${problem.line} ${problem.rule}`)
        .sort();
    await filterProblems('**/kafka-refunds.ts');
    await expect.poll(typedFileProblems, { timeout: 30_000 }).toEqual(['24 no-delivery-id-effect-key']);
    await workbench.runCommand('Idempotency: Check Workspace');
    const toast = page.locator('.notifications-toasts .notification-toast', {
      hasText: 'Idempotency: checking the workspace',
    });
    const progress = async () => {
      const shown = /(\d+) of (\d+) files/.exec(await toast.innerText().catch(() => ''));
      return shown ? { done: Number(shown[1]), of: Number(shown[2]) } : undefined;
    };
    await expect.poll(progress, { timeout: 60_000 }).toMatchObject({ of: expect.any(Number) as unknown });
    const started = (await progress())!;
    // Every generated file but the excluded, and the examples' own.
    expect(started.of).toBeGreaterThan(total);
    expect(started.of).toBeLessThan(total + 20);
    await screenshot('workspace-check-2000-progress');

    // Typing in the open consumer while the check runs: a key from the offset, on a line of its own.
    const typed = Date.now();
    await workbench.goToPosition(20, 1);
    await page.keyboard.insertText(
      '    await stripe.refunds.create({ charge: event.chargeId, amount: event.cents }, { idempotencyKey: message.offset });\n',
    );
    await expect
      .poll(typedFileProblems, { timeout: 30_000 })
      .toEqual(['20 no-delivery-id-effect-key', '25 no-delivery-id-effect-key']);
    // The typed file's findings came while the check was still running.
    const during = await progress();
    console.log(
      `typed file checked in ${Date.now() - typed} ms, while the workspace check was at ${during?.done ?? 'its end'} of ${started.of} files`,
    );
    expect(during, 'the workspace check is still running').toBeDefined();
    expect(during!.done).toBeLessThan(during!.of);
    await screenshot('workspace-check-2000-typing');

    await toast.hover();
    await toast.locator('.monaco-button', { hasText: 'Cancel' }).click();
    await toast.waitFor({ state: 'hidden', timeout: 30_000 });
    await expect.poll(() => logLines('Workspace check cancelled'), { timeout: 15_000 }).toHaveLength(1);
    const checked = Number(/cancelled: (\d+) files checked/.exec(logLines('Workspace check cancelled')[0])?.[1]);
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThan(started.of);
    // What it found before it stopped stays in the Problems panel.
    await filterProblems('**/services/**');
    await expect
      .poll(async () => (await workbench.problems()).filter((problem) => problem.file.startsWith('handler-')).length, {
        timeout: 15_000,
      })
      .toBeGreaterThan(0);
    await screenshot('workspace-check-2000-cancelled');
  });
});
