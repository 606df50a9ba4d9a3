/**
 * `npm run bench -w extension`: how fast the packaged extension activates, and how long a
 * change to a 2,000-line consumer takes to become fresh diagnostics, measured through the
 * extension's own bundle and event handlers (with a stand-in for the editor around them).
 * The baseline, measured in the same run, is ESLint parsing the same file with no rules.
 */
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as typeScriptParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';

import { consumerFile } from './consumer-corpus';
import { installVscodeStandIn } from './vscode-stand-in';

const here = path.dirname(fileURLToPath(import.meta.url));
const extensionRoot = path.resolve(here, '../../../extension');
const bundle = path.join(extensionRoot, 'dist/extension.js');

type Activation = { activate(context: unknown): void };

function fakeContext() {
  return { subscriptions: [] as { dispose(): void }[], extensionPath: extensionRoot, extensionUri: { fsPath: extensionRoot, toString: () => `file://${extensionRoot}` } };
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

const format = (ms: number) => `${ms.toFixed(1)} ms`;

/** One cold activation, in this (fresh) process: loading the bundle and running activate(). */
function activationSample(): void {
  const fake = installVscodeStandIn();
  fake.fakeEditor.configuration = {};
  const started = performance.now();
  const extension = createRequire(import.meta.url)(bundle) as Activation;
  extension.activate(fakeContext());
  process.stdout.write(JSON.stringify({ activationMs: performance.now() - started }));
}

async function main(): Promise<void> {
  // Activation is a cold start, so each sample is a new process.
  const activations = Array.from({ length: 7 }, () => {
    const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--activation-sample'], {
      encoding: 'utf8',
    });
    return (JSON.parse(output) as { activationMs: number }).activationMs;
  });

  const fake = installVscodeStandIn();
  fake.fakeEditor.configuration = { typingDelay: 0 };
  const extension = createRequire(import.meta.url)(bundle) as Activation;
  extension.activate(fakeContext());
  const [collection] = fake.fakeEditor.collections;
  if (!collection) throw new Error('The extension created no diagnostic collection');

  const text = consumerFile(2000);
  const document = new fake.FakeTextDocument(fake.Uri.file('/bench/consumer.ts'), 'typescript', text);
  fake.fakeEditor.documents.push(document);
  fake.fakeEditor.activeDocument = document;

  const nextDiagnostics = () =>
    new Promise<number>((resolve) => {
      const subscription = collection.onSet.event(({ diagnostics }) => {
        subscription.dispose();
        resolve(diagnostics.length);
      });
    });

  const openedAt = performance.now();
  const firstResult = nextDiagnostics();
  fake.fakeEditor.events.open.fire(document);
  const timeout = setTimeout(() => {
    console.error('No diagnostics 30 s after opening the file; the extension said:', fake.fakeEditor.messages);
    process.exit(1);
  }, 30_000);
  const findings = await firstResult;
  clearTimeout(timeout);
  const firstDiagnosticsMs = performance.now() - openedAt;

  const changeSamples: number[] = [];
  const warmUp = 10;
  for (let round = 0; round < warmUp + 60; round += 1) {
    document.setText(text.replace('// end', `// end ${round}`));
    const started = performance.now();
    const result = nextDiagnostics();
    fake.fakeEditor.events.change.fire({ document, contentChanges: [{}] });
    await result;
    if (round >= warmUp) changeSamples.push(performance.now() - started);
  }

  // Baseline: ESLint parsing the same file with the same parser and no rules at all.
  const linter = new Linter({ configType: 'flat' });
  const baselineConfig = [{ files: ['**/*.ts'], languageOptions: { parser: typeScriptParser as unknown as Linter.Parser } }];
  const baseline: number[] = [];
  for (let round = 0; round < warmUp + 60; round += 1) {
    const started = performance.now();
    linter.verify(text.replace('// end', `// end ${round}`), baselineConfig, 'consumer.ts');
    if (round >= warmUp) baseline.push(performance.now() - started);
  }

  const changeMedian = percentile(changeSamples, 0.5);
  const changeP95 = percentile(changeSamples, 0.95);
  const baselineMedian = percentile(baseline, 0.5);
  console.log('extension benchmark (bundle: extension/dist)');
  console.log(`  activation (load bundle + activate), 7 cold starts: median ${format(percentile(activations, 0.5))}, max ${format(Math.max(...activations))}  [target <= 150 ms]`);
  console.log(`  first diagnostics after opening (loads the lint engine): ${format(firstDiagnosticsMs)}, ${findings} findings`);
  console.log(`  change -> diagnostics, ${text.split('\n').length - 1}-line consumer, ${changeSamples.length} changes after ${warmUp} warm-up, typing delay 0:`);
  console.log(`    median ${format(changeMedian)}, p95 ${format(changeP95)}  [target p95 <= 50 ms]`);
  console.log(`  baseline (ESLint + typescript-eslint parser, no rules): median ${format(baselineMedian)}; ratio ${(changeMedian / baselineMedian).toFixed(2)}`);

  process.exit(0);
}

if (process.argv.includes('--activation-sample')) activationSample();
else await main();
