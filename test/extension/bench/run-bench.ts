/**
 * `npm run bench -w extension`: how fast the packaged extension activates, how long a change to
 * a 2,000-line consumer (in a project of its own, with the helper module it imports and the SQL
 * migration that declares its tables) takes to become fresh diagnostics, and how long the extension host's
 * event loop is held up while a 20,000-line file is linted. Everything is measured through the
 * extension's own bundles and event handlers (with a stand-in for the editor around them), the
 * lint worker included. The same edits run twice, each in a fresh process: with the engine as it
 * ships (only the changed statements parsed again) and with every lint parsing the whole file.
 * The event loop is measured with the worker and with the same engine on the host's own thread,
 * as it ran before it had a worker, and against the machine's own floor: the same idle host
 * thread while a thread that does no linting keeps a core busy. The baseline, measured in the
 * same run, is ESLint parsing the same file with no rules.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

import type { Linter as LinterType } from 'eslint';

import type { ParseOutcome } from '../../../extension/src/lint/incremental/parse-memory.js';
import { consumerFile, consumerProject, editingSession } from './consumer-corpus.js';
import type { LintEngine } from '../../../extension/src/lint/lint-engine.js';
import { ruleNames } from '../../../extension/src/rules.js';
import { installVscodeStandIn } from './vscode-stand-in.js';
import { probeLintWorker, type LintRecord } from './worker-probe.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const extensionRoot = path.resolve(here, '../../../extension');
const bundle = path.join(extensionRoot, 'dist/extension.js');
const engineBundle = path.join(extensionRoot, 'dist/lint-engine.js');

// A fresh process needs about fifteen edits before V8 has optimised the hot code and sized its
// heap (those lints take up to twice as long), so the first twenty are not counted. With a hundred
// measured edits the p95 is the sixth-slowest lint, a steadier figure than the fourth of sixty.
const warmUp = 20;
const measured = 100;
/** The large file of the event-loop measure, and the edits made to it after it opens. */
const largeFileLines = 20_000;
const largeFileEdits = 10;

type Activation = { activate(context: unknown): void };

interface ChangeSeries {
  firstDiagnosticsMs: number;
  findings: number;
  lines: number;
  /** From the change event to the diagnostics, one per edit. */
  samples: number[];
  /** The engine's own account of each of those lints. */
  lints: LintRecord[];
}

/** The extension's own storage (where the worker keeps its code cache): a folder the parent process names, or none. */
const storage = process.env.IDEMPOTENCY_BENCH_STORAGE;

function fakeContext() {
  return {
    subscriptions: [] as { dispose(): void }[],
    extensionPath: extensionRoot,
    extensionUri: { fsPath: extensionRoot, toString: () => `file://${extensionRoot}` },
    ...(storage ? { globalStorageUri: { scheme: 'file', fsPath: storage } } : {}),
  };
}

function percentile(samples: number[], fraction: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)];
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

/** The extension, activated on the stand-in editor, with a consumer of `lines` lines to open. */
function activatedOn(lines: number, incrementalParsing: boolean) {
  const fake = installVscodeStandIn();
  fake.fakeEditor.configuration = { typingDelay: 0, maxFileSizeKB: 64 * 1024 };
  const lints = probeLintWorker({ incrementalParsing });
  const activatedAt = performance.now();
  const extension = createRequire(import.meta.url)(bundle) as Activation;
  extension.activate(fakeContext());
  const [collection] = fake.fakeEditor.collections;
  if (!collection) throw new Error('The extension created no diagnostic collection');
  const { file, text } = consumerProject(lines);
  const document = new fake.FakeTextDocument(fake.Uri.file(file), 'typescript', text);
  fake.fakeEditor.documents.push(document);
  fake.fakeEditor.activeDocument = document;
  /** Resolves with the number of diagnostics the extension publishes next. */
  const nextDiagnostics = () =>
    new Promise<number>((resolve) => {
      const subscription = collection.onSet.event(({ diagnostics }) => {
        subscription.dispose();
        resolve(diagnostics.length);
      });
    });
  return { fake, lints, text, document, nextDiagnostics, activatedAt };
}

/** Opens the consumer, then times each edit from the change event to the diagnostics it produces. */
async function changeSeries(incrementalParsing: boolean): Promise<void> {
  const { fake, lints, text, document, nextDiagnostics, activatedAt } = activatedOn(2000, incrementalParsing);

  const firstResult = nextDiagnostics();
  fake.fakeEditor.events.open.fire(document);
  const timeout = setTimeout(() => {
    console.error('No diagnostics 30 s after opening the file; the extension said:', fake.fakeEditor.messages);
    process.exit(1);
  }, 30_000);
  const findings = await firstResult;
  clearTimeout(timeout);
  // From the start of activation (loading the host bundle) to the first diagnostics of the file it opened with.
  const firstDiagnosticsMs = performance.now() - activatedAt;
  if (process.argv.includes('--first-only')) {
    process.stdout.write(JSON.stringify({ firstDiagnosticsMs, findings }));
    process.exit(0);
  }

  const samples: number[] = [];
  const edits = editingSession(text, warmUp + measured);
  for (const [round, edit] of edits.entries()) {
    document.setText(edit.text);
    const started = performance.now();
    const result = nextDiagnostics();
    fake.fakeEditor.events.change.fire({ document, contentChanges: [{}] });
    await result;
    if (round >= warmUp) samples.push(performance.now() - started);
  }
  // The first lint is the one on opening.
  const series: ChangeSeries = {
    firstDiagnosticsMs,
    findings,
    lines: text.split('\n').length - 1,
    samples,
    lints: lints.slice(1 + warmUp),
  };
  process.stdout.write(JSON.stringify(series));
  process.exit(0);
}

interface EventLoopDelay {
  lines: number;
  findings: number;
  /** The longest the host's event loop waited, and its 99th percentile, in ms. */
  maxMs: number;
  p99Ms: number;
  /** With the worker: the host's own work on each report, from its arrival to the diagnostics. */
  hostWorkMs?: number[];
  /** How long the series ran. */
  durationMs: number;
}

/**
 * The extension host's event loop while a 20,000-line consumer opens and takes ten edits, each
 * awaited to its diagnostics. With the worker, the host only sends the text and turns findings
 * into diagnostics. Without it, the same engine runs on this thread, as the extension used to.
 */
async function eventLoopSeries(withWorker: boolean): Promise<void> {
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  let findings = 0;
  let lines: number;
  const hostWork: number[] = [];
  const started = performance.now();
  if (withWorker) {
    const { fake, lints, text, document, nextDiagnostics } = activatedOn(largeFileLines, true);
    lines = text.split('\n').length - 1;
    // The stand-in finds the lines of each edit's text before the measure: VS Code updates its documents incrementally.
    const edits = editingSession(text, largeFileEdits).map((edit) => fake.indexedText(edit.text));
    collectSetUpGarbage();
    monitor.enable();
    const opened = nextDiagnostics();
    fake.fakeEditor.events.open.fire(document);
    findings = await opened;
    for (const edit of edits) {
      document.setText(edit);
      const result = nextDiagnostics();
      fake.fakeEditor.events.change.fire({ document, contentChanges: [{}] });
      await result;
      hostWork.push(performance.now() - lints.at(-1)!.arrivedAt);
    }
  } else {
    const { loadLintEngine } = createRequire(import.meta.url)(engineBundle) as {
      loadLintEngine(): Promise<LintEngine>;
    };
    const engine = await loadLintEngine();
    const text = consumerFile(largeFileLines);
    lines = text.split('\n').length - 1;
    collectSetUpGarbage();
    monitor.enable();
    for (const next of [text, ...editingSession(text, largeFileEdits).map((edit) => edit.text)]) {
      const report = engine.lint({
        text: next,
        fileName: 'consumer.ts',
        rules: [...ruleNames],
        documentKey: 'file:///bench/consumer.ts',
      });
      if (report.kind === 'linted') findings = report.problems.length;
      // Back to the event loop between lints, as the editor would be between changes.
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  monitor.disable();
  const result: EventLoopDelay = {
    lines,
    findings,
    maxMs: monitor.max / 1e6,
    p99Ms: monitor.percentile(99) / 1e6,
    hostWorkMs: withWorker ? hostWork : undefined,
    durationMs: performance.now() - started,
  };
  process.stdout.write(JSON.stringify(result));
  process.exit(0);
}

/** The lint worker loading in plain Node, outside any editor and without a code cache: from its start to its 'ready'. */
async function workerLoadSample(): Promise<void> {
  const started = performance.now();
  const worker = new Worker(path.join(extensionRoot, 'dist/lint-worker.js'), { workerData: { lintWorker: {} } });
  await new Promise<void>((resolve, reject) => {
    worker.on('message', (message: { type: string; reason?: string }) =>
      message.type === 'ready' ? resolve() : message.type === 'failed' && reject(new Error(message.reason)),
    );
    worker.on('error', reject);
  });
  process.stdout.write(JSON.stringify({ loadMs: performance.now() - started }));
  process.exit(0);
}

/**
 * The machine's floor for the figure above: this thread idle, as the host is between reports,
 * while another thread of the process builds and drops object trees (allocating as a lint does,
 * linting nothing) for as long as the worker series ran. On a shared virtual machine a busy
 * thread alone delays an idle one; the worker's figure is read against this one.
 */
async function eventLoopFloor(durationMs: number): Promise<void> {
  const busy = new Worker(
    `const end = Date.now() + ${Math.round(durationMs)}; let trees = [];
     while (Date.now() < end) { trees.push({ type: 'Node', children: [{ value: trees.length }] }); if (trees.length > 200000) trees = []; }`,
    { eval: true },
  );
  await new Promise((resolve) => busy.once('online', resolve));
  const monitor = monitorEventLoopDelay({ resolution: 1 });
  monitor.enable();
  await new Promise((resolve) => busy.once('exit', resolve));
  monitor.disable();
  process.stdout.write(JSON.stringify({ maxMs: monitor.max / 1e6, p99Ms: monitor.percentile(99) / 1e6 }));
  process.exit(0);
}

/**
 * Building the 20,000-line file and its edits leaves tens of megabytes of garbage on this thread,
 * which a full collection would otherwise sweep inside the measured window: that pause is the
 * benchmark's, not the extension's.
 */
function collectSetUpGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

function runChild(...args: string[]): string {
  return execFileSync(process.execPath, [...process.execArgv, '--expose-gc', fileURLToPath(import.meta.url), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, IDEMPOTENCY_BENCH_STORAGE: benchStorage },
  });
}

/** The extension's storage for every measured process of this run: the first one starts without a code cache. */
const benchStorage =
  process.env.IDEMPOTENCY_BENCH_STORAGE ?? mkdtempSync(path.join(os.tmpdir(), 'idempotency-bench-storage-'));

function describeOutcomes(outcomes: (ParseOutcome | undefined)[]): string {
  const full = outcomes.filter((outcome) => outcome?.kind === 'full');
  const incremental = outcomes.filter((outcome) => outcome?.kind === 'incremental').length;
  const reasons = new Map<string, number>();
  for (const outcome of full)
    if (outcome?.kind === 'full') reasons.set(outcome.reason, (reasons.get(outcome.reason) ?? 0) + 1);
  const why = [...reasons].map(([reason, count]) => `${count}x ${reason}`).join('; ');
  const rate = (100 * full.length) / Math.max(outcomes.length, 1);
  return `${incremental} of ${outcomes.length} parsed incrementally; fallback to a full parse ${full.length} (${rate.toFixed(0)}%)${why ? `: ${why}` : ''}`;
}

async function main(): Promise<void> {
  // Activation is a cold start, so each sample is a new process.
  const activations = Array.from(
    { length: 7 },
    () => (JSON.parse(runChild('--activation-sample')) as { activationMs: number }).activationMs,
  );
  // The first session of the extension has no code cache; it leaves one for every session after.
  // Those are measured in turns with the worker's plain-Node load, so each pair sees the same machine.
  rmSync(benchStorage, { recursive: true, force: true });
  const incremental = JSON.parse(runChild('--change-series', 'incremental')) as ChangeSeries;
  const workerLoads: number[] = [];
  const firstWarm: number[] = [];
  for (let round = 0; round < 3; round += 1) {
    workerLoads.push((JSON.parse(runChild('--worker-load')) as { loadMs: number }).loadMs);
    firstWarm.push(
      (JSON.parse(runChild('--change-series', 'incremental', '--first-only')) as { firstDiagnosticsMs: number })
        .firstDiagnosticsMs,
    );
  }
  const full = JSON.parse(runChild('--change-series', 'full')) as ChangeSeries;
  const loopWithWorker = JSON.parse(runChild('--event-loop', 'worker')) as EventLoopDelay;
  const loopOnHost = JSON.parse(runChild('--event-loop', 'host')) as EventLoopDelay;
  const floor = JSON.parse(runChild('--event-loop-floor', String(loopWithWorker.durationMs))) as Pick<
    EventLoopDelay,
    'maxMs' | 'p99Ms'
  >;
  rmSync(benchStorage, { recursive: true, force: true });
  // The machine's load, because an event loop's delay includes waiting for a core.
  const load = os.loadavg()[0].toFixed(1);

  // Baseline: ESLint parsing the same file with the same parser and no rules at all.
  const text = consumerFile(2000);
  // Loaded here, not at the top: the measured processes are an extension host, which never loads ESLint or TypeScript itself.
  const { Linter } = await import('eslint');
  const typeScriptParser = await import('@typescript-eslint/parser');
  const linter = new Linter({ configType: 'flat' });
  const baselineConfig = [
    { files: ['**/*.ts'], languageOptions: { parser: typeScriptParser as unknown as LinterType.Parser } },
  ];
  const baseline: number[] = [];
  for (const [round, edit] of editingSession(text, warmUp + measured).entries()) {
    const started = performance.now();
    linter.verify(edit.text, baselineConfig, 'consumer.ts');
    if (round >= warmUp) baseline.push(performance.now() - started);
  }

  const baselineMedian = percentile(baseline, 0.5);
  const spread = (samples: number[]) =>
    `median ${format(percentile(samples, 0.5))}, p95 ${format(percentile(samples, 0.95))}`;
  const line = (label: string, series: ChangeSeries) =>
    `    ${label} ${spread(series.samples)}, max ${format(Math.max(...series.samples))}; ratio to baseline ${(percentile(series.samples, 0.5) / baselineMedian).toFixed(2)}`;
  const parts = (series: ChangeSeries) => {
    const parse = series.lints.map((lint) => lint.parse?.durationMs ?? 0);
    const rest = series.lints.map((lint, index) => lint.lintMs - parse[index]);
    const outside = series.samples.map((sample, index) => sample - series.lints[index].lintMs);
    return `      parse (scope analysis included) ${spread(parse)}; ESLint and the rules ${spread(rest)}; the extension around the lint ${spread(outside)}`;
  };
  console.log(
    `extension benchmark (bundle: extension/dist; load average ${load} on ${os.availableParallelism()} cores)`,
  );
  console.log(
    `  activation (load bundle + activate), 7 cold starts: median ${format(percentile(activations, 0.5))}, max ${format(Math.max(...activations))}`,
  );
  const loadMedian = percentile(workerLoads, 0.5);
  const warmMedian = percentile(firstWarm, 0.5);
  console.log(
    `  the lint worker's load in plain Node (no editor, no code cache), ${workerLoads.length} starts: median ${format(loadMedian)}`,
  );
  console.log(
    `  first diagnostics after activation (the host starts the worker, which loads the engine, then lints the opened ${incremental.lines}-line consumer, ${incremental.findings} findings):`,
  );
  console.log(
    `    first session (no code cache yet): ${format(incremental.firstDiagnosticsMs)}; ratio to the worker's plain-Node load ${(incremental.firstDiagnosticsMs / loadMedian).toFixed(2)}`,
  );
  console.log(
    `    later sessions (the code cache kept), ${firstWarm.length} starts: median ${format(warmMedian)}; ratio ${(warmMedian / loadMedian).toFixed(2)}`,
  );
  console.log(
    `  change -> diagnostics through the lint worker, ${incremental.lines}-line consumer with its imported helper and SQL migration, ${incremental.samples.length} edits (a line added or removed in a handler, a key renamed or changed, the last comment) after ${warmUp} warm-up, typing delay 0:`,
  );
  console.log(line('incremental parse (as shipped):', incremental));
  console.log(parts(incremental));
  console.log(`      ${describeOutcomes(incremental.lints.map((lint) => lint.parse))}`);
  console.log(line('full parse (the fallback path):', full));
  console.log(parts(full));
  console.log(`  baseline (ESLint + typescript-eslint parser, no rules, full parse): median ${format(baselineMedian)}`);
  const loop = (label: string, delay: Pick<EventLoopDelay, 'maxMs' | 'p99Ms'>) =>
    `    ${label} max ${format(delay.maxMs)}, p99 ${format(delay.p99Ms)}`;
  console.log(
    `  extension host event-loop delay while a ${loopWithWorker.lines}-line consumer opens and takes ${largeFileEdits} edits (${loopWithWorker.findings} findings):`,
  );
  console.log(loop('lint worker (as shipped):', loopWithWorker));
  console.log(
    `      the host's own work per report (to diagnostics): median ${format(percentile(loopWithWorker.hostWorkMs!, 0.5))}, max ${format(Math.max(...loopWithWorker.hostWorkMs!))}`,
  );
  console.log(loop('the same engine on the host thread:', loopOnHost));
  console.log(
    loop(`the machine's floor (no lint; another thread only allocates, ${format(loopWithWorker.durationMs)}):`, floor),
  );

  // Issue 25's targets, each a ratio or a difference measured in this run: this machine's floor moves by 2x between runs.
  const verdict = (met: boolean, text: string) => console.log(`  ${met ? 'met   ' : 'missed'} ${text}`);
  const ratio = (value: number, target: number, text: string) =>
    verdict(value <= target, `${text}: ${value.toFixed(2)} (target <= ${target})`);
  console.log('targets:');
  ratio(
    incremental.firstDiagnosticsMs / loadMedian,
    1.5,
    "first diagnostics after activation, first session / the worker's plain-Node load",
  );
  ratio(
    warmMedian / loadMedian,
    1.5,
    "first diagnostics after activation, later sessions / the worker's plain-Node load",
  );
  ratio(
    percentile(incremental.samples, 0.5) / baselineMedian,
    0.35,
    "change -> diagnostics median / ESLint's parse-only lint of the same file",
  );
  verdict(
    loopWithWorker.maxMs <= floor.maxMs + 10,
    `the host's event-loop max beside the machine's floor: ${format(loopWithWorker.maxMs)} (target <= floor ${format(floor.maxMs)} + 10 ms)`,
  );

  process.exit(0);
}

if (process.argv.includes('--activation-sample')) activationSample();
else if (process.argv.includes('--worker-load')) await workerLoadSample();
else if (process.argv.includes('--change-series'))
  await changeSeries(process.argv[process.argv.indexOf('--change-series') + 1] === 'incremental');
else if (process.argv.includes('--event-loop-floor'))
  await eventLoopFloor(Number(process.argv[process.argv.indexOf('--event-loop-floor') + 1]));
else if (process.argv.includes('--event-loop'))
  await eventLoopSeries(process.argv[process.argv.indexOf('--event-loop') + 1] === 'worker');
else await main();
