import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { EntryPointListing } from '../../extension/src/lint/lint-engine.js';
import { lintWorker } from '../../extension/src/lint/lint-worker-client.js';
import { entryPointTree } from '../../extension/src/entry-points/entry-point-tree.js';
import { ruleNames } from '../../extension/src/rules.js';
import { addWebhook, webhookFile } from '../e2e/support/entry-point-workspace.js';

/**
 * The listing behind the Entry Points view, made by the lint worker on the e2e workspace (the
 * plugin's examples and a webhook): every handler, of each kind, with what settles its repeats
 * and the findings inside it.
 */

const workerEntry = fileURLToPath(new URL('../../extension/dist/lint-worker.js', import.meta.url));
const examples = fileURLToPath(new URL('../../eslint-plugin/examples', import.meta.url));

describe('the entry points of the e2e workspace, listed in the lint worker', () => {
  let root: string;
  const worker = lintWorker(workerEntry, { onLoaded: () => {}, onFailure: () => {} });
  const byFile = new Map<string, EntryPointListing[]>();

  beforeAll(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'idempotency-entry-points-'));
    cpSync(examples, root, { recursive: true });
    addWebhook(root);
    const engine = await worker.engine();
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter(
      (file) => /\.(?:[cm]?[jt]s)$/.test(file) && !file.endsWith('.d.ts') && statSync(path.join(root, file)).isFile(),
    );
    for (const file of files) {
      const report = await engine.lint({
        text: readFileSync(path.join(root, file), 'utf8'),
        fileName: path.join(root, file),
        rules: ruleNames.filter((rule) => rule !== 'require-repeat-safe-effect'),
        folder: root,
        entryPoints: true,
      });
      if (report.kind === 'linted' && report.entryPoints && report.entryPoints.length > 0)
        byFile.set(file, report.entryPoints);
    }
  });
  afterAll(() => {
    worker.dispose();
    rmSync(root, { recursive: true, force: true });
  });

  const listed = () =>
    [...byFile].flatMap(([file, entries]) =>
      entries.map((entry) => ({
        file,
        line: entry.start.line,
        name: entry.name,
        kind: entry.kind,
        library: entry.library,
        repeats: entry.repeats.what,
        findings: entry.findings.map((finding) => `${finding.line} ${finding.rule}`),
      })),
    );

  it('lists each consumer with its library, what settles its repeats and its findings', () => {
    expect(listed().filter((entry) => entry.kind === 'consumer')).toEqual([
      {
        file: 'amqp-ledger.js',
        line: 15,
        name: "channel.consume('ledger')",
        kind: 'consumer',
        library: 'amqplib',
        repeats: 'check of stored state: await alreadyHandled(msg.properties.messageId)',
        findings: ['22 no-check-then-insert', '25 no-delivery-id-effect-key'],
      },
      {
        file: 'kafka-refunds.ts',
        line: 17,
        name: 'eachMessage',
        kind: 'consumer',
        library: 'kafkajs',
        repeats: 'provider idempotency key: stripe.refunds.create()',
        findings: ['24 no-delivery-id-effect-key'],
      },
      {
        file: 'sqs-receipts.cjs',
        line: 16,
        name: 'poll',
        kind: 'consumer',
        library: 'aws-sqs',
        repeats: 'unique key: the INSERT into receipts on (receipt_key)',
        findings: [],
      },
    ]);
  });

  it('lists each job worker, named by its registration', () => {
    expect(listed().filter((entry) => entry.kind === 'job')).toEqual([
      {
        file: 'bullmq-payouts.mjs',
        line: 9,
        name: "new Worker('payouts')",
        kind: 'job',
        library: 'bullmq',
        repeats: 'unique key: prisma.payout.upsert() on (payoutKey)',
        findings: ['15 no-amount-effect-key', '23 no-claim-after-effect'],
      },
      {
        file: 'inbox-done-right.ts',
        line: 14,
        name: "new Worker('sales')",
        kind: 'job',
        library: 'bullmq',
        repeats: 'inbox claim: the INSERT into inbox',
        findings: [],
      },
    ]);
  });

  it('lists the webhook with its inbox claim and the unique key it claims on', () => {
    expect(listed().filter((entry) => entry.kind === 'webhook')).toEqual([
      {
        file: webhookFile,
        line: 7,
        name: 'POST',
        kind: 'webhook',
        library: 'stripe',
        repeats: 'inbox claim: the INSERT into inbox on (event_id)',
        findings: [],
      },
    ]);
  });

  it('groups them by kind, then by library, for the view', () => {
    const tree = entryPointTree(byFile);
    expect(
      tree.map((kind) => [
        kind.type === 'kind' && kind.label,
        kind.type === 'kind' &&
          kind.children.map((library) => library.type === 'library' && [library.label, library.count]),
      ]),
    ).toEqual([
      [
        'Consumers',
        [
          ['amqplib', 1],
          ['aws-sqs', 1],
          ['kafkajs', 1],
        ],
      ],
      ['Webhooks', [['stripe', 1]]],
      ['Jobs', [['bullmq', 2]]],
    ]);
  });
});
