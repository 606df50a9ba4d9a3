import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('vscode', async () => await import('./support/fake-vscode.js'));

import { activate } from '../../extension/src/extension.js';
import { fakeEditor, FakeTextDocument, LanguageStatusSeverity, Uri } from './support/fake-vscode.js';

const extensionRoot = fileURLToPath(new URL('../../extension', import.meta.url));

/** A consumer with one finding of each of two rules: an amount key, and a delivery-id key. */
const consumer = `import amqp from 'amqplib';
export function start(channel, client) {
  channel.consume('refunds', async (message) => {
    await client.query('INSERT INTO refunds (refund_key, cents) VALUES ($1, $2) ON CONFLICT (refund_key) DO NOTHING', ['refund-' + message.cents, message.cents]);
    await client.query('INSERT INTO ledger (entry_id, cents) VALUES ($1, $2) ON CONFLICT (entry_id) DO NOTHING', [message.properties.messageId, message.cents]);
  });
}
`;

describe('the extension in a workspace', () => {
  const context = {
    subscriptions: [] as { dispose(): void }[],
    extensionPath: extensionRoot,
    extensionUri: Uri.file(extensionRoot),
    workspaceState: { get: () => undefined, update: async () => {} },
  };
  afterAll(() => {
    for (const subscription of context.subscriptions) subscription.dispose();
  });

  it("applies each folder's settings to its own files", async () => {
    fakeEditor.configuration = { typingDelay: 0 };
    fakeEditor.folderConfiguration = {
      '/work/payments': { rules: { 'no-amount-effect-key': 'off' } },
      '/work/legacy': { enable: false },
    };
    const documents = ['/work/payments/refunds.js', '/work/ledger/refunds.js', '/work/legacy/refunds.js'].map(
      (file) => new FakeTextDocument(Uri.file(file), 'javascript', consumer),
    );
    fakeEditor.documents.push(...documents);
    fakeEditor.activeDocument = documents[2];
    activate(context as never);
    const [collection] = fakeEditor.collections;
    const rulesOf = (document: FakeTextDocument) =>
      collection.byUri
        .get(document.uri.toString())
        ?.map((diagnostic) => (diagnostic.code as { value: string }).value)
        .sort();
    await vi.waitFor(() => expect(rulesOf(documents[1])).toBeDefined(), { timeout: 60_000, interval: 50 });
    await vi.waitFor(() => expect(rulesOf(documents[0])).toBeDefined(), { timeout: 10_000, interval: 50 });
    expect(rulesOf(documents[1])).toEqual(['no-amount-effect-key', 'no-delivery-id-effect-key']);
    expect(rulesOf(documents[0])).toEqual(['no-delivery-id-effect-key']);
    // The folder with checking off: no findings, and the status item of its file says why.
    expect(rulesOf(documents[2])).toBeUndefined();
    expect(fakeEditor.statusItems[0]?.text).toBe('Idempotency: off');
  });

  it('checks the open documents again when a file they may depend on changes, on disk or unsaved', async () => {
    const [collection] = fakeEditor.collections;
    const checked: string[] = [];
    collection.onSet.event(({ uri }) => checked.push(uri.fsPath));
    const waitForBoth = async () => {
      await vi.waitFor(
        () => expect([...new Set(checked)].sort()).toEqual(['/work/ledger/refunds.js', '/work/payments/refunds.js']),
        { timeout: 10_000, interval: 20 },
      );
      checked.length = 0;
    };
    fakeEditor.events.fileChanged.fire(Uri.file('/work/ledger/migrations/001_refunds.sql'));
    await waitForBoth();
    const schema = new FakeTextDocument(Uri.file('/work/ledger/prisma/schema.prisma'), 'prisma', 'model Refund {}\n');
    fakeEditor.documents.push(schema);
    schema.setText('model Refund { key String @unique }\n');
    fakeEditor.events.change.fire({ document: schema, contentChanges: [{}] });
    await waitForBoth();
    // Not a file the findings can depend on.
    fakeEditor.events.fileChanged.fire(Uri.file('/work/ledger/node_modules/pg/lib/index.js'));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(checked).toEqual([]);
  });

  it("applies a folder's changed settings to its open files once the configuration changes", async () => {
    const [collection] = fakeEditor.collections;
    const payments = fakeEditor.documents.find((document) => document.uri.fsPath === '/work/payments/refunds.js')!;
    const rulesOfPayments = () =>
      collection.byUri
        .get(payments.uri.toString())
        ?.map((diagnostic) => (diagnostic.code as { value: string }).value)
        .sort();
    expect(rulesOfPayments()).toEqual(['no-delivery-id-effect-key']);
    fakeEditor.folderConfiguration['/work/payments'] = {};
    fakeEditor.events.configuration.fire({ affectsConfiguration: (section) => section === 'idempotency' });
    await vi.waitFor(() => expect(rulesOfPayments()).toEqual(['no-amount-effect-key', 'no-delivery-id-effect-key']), {
      timeout: 10_000,
      interval: 20,
    });
  });

  it('applies the settings of a folder added to the workspace to its open files', async () => {
    const [collection] = fakeEditor.collections;
    const ledger = fakeEditor.documents.find((document) => document.uri.fsPath === '/work/ledger/refunds.js')!;
    const rulesOfLedger = () =>
      collection.byUri
        .get(ledger.uri.toString())
        ?.map((diagnostic) => (diagnostic.code as { value: string }).value)
        .sort();
    expect(rulesOfLedger()).toEqual(['no-amount-effect-key', 'no-delivery-id-effect-key']);
    fakeEditor.folderConfiguration['/work/ledger'] = { rules: { 'no-delivery-id-effect-key': 'off' } };
    fakeEditor.events.workspaceFolders.fire({ added: [{ uri: Uri.file('/work/ledger') }], removed: [] });
    await vi.waitFor(() => expect(rulesOfLedger()).toEqual(['no-amount-effect-key']), {
      timeout: 10_000,
      interval: 20,
    });
  });

  it('leaves a test file alone, as the recommended config does in CI, and says so', async () => {
    const [collection] = fakeEditor.collections;
    fakeEditor.folderConfiguration['/work/payments'] = {};
    const test = new FakeTextDocument(Uri.file('/work/payments/refunds.test.js'), 'javascript', consumer);
    fakeEditor.documents.push(test);
    fakeEditor.activeDocument = test;
    fakeEditor.events.open.fire(test);
    fakeEditor.events.activeEditor.fire({ document: test });
    await vi.waitFor(() => expect(fakeEditor.statusItems[0]?.text).toBe('Idempotency: not checked'), {
      timeout: 10_000,
      interval: 20,
    });
    expect(collection.byUri.get(test.uri.toString()) ?? []).toEqual([]);
  });

  it("reads a folder's declared wrappers in its own files, and says which declaration it cannot read", async () => {
    const [collection] = fakeEditor.collections;
    const wrapped = `export function start(bus, stripe) {
  bus.subscribe('refunds', async (envelope) => {
    await stripe.refunds.create({ charge: envelope.body.chargeId }, { idempotencyKey: envelope.deliveryId });
  });
}
`;
    const declared = new FakeTextDocument(Uri.file('/work/payments/bus-refunds.js'), 'javascript', wrapped);
    const undeclared = new FakeTextDocument(Uri.file('/work/ledger/bus-refunds.js'), 'javascript', wrapped);
    fakeEditor.documents.push(declared, undeclared);
    fakeEditor.folderConfiguration['/work/payments'] = {
      declarations: { consumers: [{ call: 'bus.subscribe', handler: 1, delivery: ['deliveryId'] }] },
    };
    fakeEditor.events.configuration.fire({ affectsConfiguration: (section) => section === 'idempotency' });
    const rulesOf = (document: FakeTextDocument) =>
      collection.byUri.get(document.uri.toString())?.map((diagnostic) => (diagnostic.code as { value: string }).value);
    await vi.waitFor(() => expect(rulesOf(declared)).toEqual(['no-delivery-id-effect-key']), {
      timeout: 10_000,
      interval: 20,
    });
    await vi.waitFor(() => expect(rulesOf(undeclared)).toEqual([]), { timeout: 10_000, interval: 20 });

    fakeEditor.folderConfiguration['/work/payments'] = {
      declarations: { consumers: [{ call: 'bus subscribe', handler: 1 }] },
    };
    fakeEditor.events.configuration.fire({ affectsConfiguration: (section) => section === 'idempotency' });
    await vi.waitFor(() => expect(rulesOf(declared)).toBeUndefined(), { timeout: 10_000, interval: 20 });
    expect(
      fakeEditor.messages.some((line) =>
        line.includes(
          'The setting idempotency.declarations.consumers[0].call must be a dotted name such as "bus.subscribe".',
        ),
      ),
    ).toBe(true);
  });

  it('says once, in the log, a notification and the status item, which schema file it skipped and why, and logs a setting it cannot read', async () => {
    const project = mkdtempSync(path.join(os.tmpdir(), 'idempotency-broken-schema-'));
    try {
      mkdirSync(path.join(project, 'prisma'));
      writeFileSync(path.join(project, 'package.json'), '{ "name": "accounts" }');
      // A merge left its markers in the schema.
      writeFileSync(
        path.join(project, 'prisma/schema.prisma'),
        'model User {\n<<<<<<< HEAD\n  email String @unique\n=======\n  email String\n>>>>>>> main\n}\n',
      );
      fakeEditor.folderConfiguration[project] = { typingDelay: 'soon' };
      const consumer = new FakeTextDocument(
        Uri.file(path.join(project, 'signup.ts')),
        'typescript',
        'export async function signUp(prisma, email) {\n  if (!(await prisma.user.findFirst({ where: { email } }))) await prisma.user.create({ data: { email } });\n}\n',
      );
      fakeEditor.documents.push(consumer);
      fakeEditor.activeDocument = consumer;
      fakeEditor.events.open.fire(consumer);
      fakeEditor.events.activeEditor.fire({ document: consumer });
      await vi.waitFor(
        () => expect(fakeEditor.statusItems[0]?.text).toBe('Idempotency: schema skipped: schema.prisma unreadable'),
        { timeout: 20_000, interval: 20 },
      );
      expect(fakeEditor.statusItems[0]?.detail).toMatch(
        /^prisma\/schema\.prisma could not be read as a Prisma schema\. /,
      );
      expect(fakeEditor.statusItems[0]?.severity).toBe(LanguageStatusSeverity.Warning);
      expect(fakeEditor.notifications).toEqual([
        'Idempotency Lens skipped prisma/schema.prisma: it could not be read as a Prisma schema, so the unique keys declared there are unknown to the check.',
      ]);
      expect(
        fakeEditor.messages.filter((line) =>
          line.includes(`skipped ${path.join(project, 'prisma/schema.prisma')}: it could not be read`),
        ),
      ).toHaveLength(1);
      expect(fakeEditor.messages).toContain(
        'The setting idempotency.typingDelay is "soon", which is not one of its values; 300 is used instead.',
      );
      // Checked again, it is not said again.
      fakeEditor.events.save.fire(consumer);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(fakeEditor.notifications).toHaveLength(1);
      expect(fakeEditor.messages.filter((line) => line.includes('idempotency.typingDelay'))).toHaveLength(1);
      // Once the schema changes it is read again, and the status no longer speaks of it.
      fakeEditor.events.fileChanged.fire(Uri.file(path.join(project, 'prisma/schema.prisma')));
      await vi.waitFor(() => expect(fakeEditor.statusItems[0]?.text).toBe('Idempotency: checked with schema.prisma'), {
        timeout: 10_000,
        interval: 20,
      });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
