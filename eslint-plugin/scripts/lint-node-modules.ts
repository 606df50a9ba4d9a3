import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';

import { whenSqlParserReady } from '../src/analysis/sql/parser.js';
import { CorpusLinter, sourceFilesBelow } from './corpus-linter.js';

/**
 * Lints every .js/.ts file under a node_modules folder (the project's own by default) with the
 * plugin's rules and reports any exception a rule raises. Tens of thousands of files nobody wrote
 * for these rules: the plugin must never throw on any of them.
 *
 *   npm run robustness -w eslint-plugin [-- <folder>]
 */

interface ShardReport {
  linted: number;
  unparseable: number;
  crashes: { file: string; error: string }[];
  findings: { file: string; ruleId: string; line: number; message: string }[];
  slowest: { file: string; ms: number }[];
}

function lintShard(files: string[]): ShardReport {
  const linter = new CorpusLinter();
  const report: ShardReport = { linted: 0, unparseable: 0, crashes: [], findings: [], slowest: [] };
  for (const file of files) {
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const started = performance.now();
    const outcome = linter.lint(source, file);
    const ms = performance.now() - started;
    report.slowest.push({ file, ms });
    if (report.slowest.length > 20) report.slowest = report.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
    if (outcome.unparseable) {
      report.unparseable += 1;
      continue;
    }
    report.linted += 1;
    if (outcome.crash) report.crashes.push({ file, error: outcome.crash });
    for (const finding of outcome.findings) report.findings.push({ file, ...finding });
  }
  report.slowest = report.slowest.sort((a, b) => b.ms - a.ms).slice(0, 10);
  return report;
}

async function main(): Promise<void> {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const folder = path.resolve(process.argv[2] ?? path.join(here, '../../node_modules'));
  const files = sourceFilesBelow(folder);
  const shards = Math.max(1, Math.min(os.availableParallelism?.() ?? 2, 4));
  console.log(`Linting ${files.length} files under ${folder} in ${shards} threads…`);
  const started = performance.now();
  const reports = await Promise.all(
    Array.from({ length: shards }, (_, shard) => {
      const mine = files.filter((_, index) => index % shards === shard);
      return new Promise<ShardReport>((resolve, reject) => {
        // The worker loads this same file through tsx, which compiles it on the fly.
        const bootstrap = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`;
        const worker = new Worker(bootstrap, {
          eval: true,
          workerData: mine,
          env: { ...process.env, IDEMPOTENCY_LINT_STRICT: '1' },
          resourceLimits: { stackSizeMb: 16 },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    }),
  );
  const total = reports.reduce(
    (sum, report) => ({
      linted: sum.linted + report.linted,
      unparseable: sum.unparseable + report.unparseable,
      crashes: [...sum.crashes, ...report.crashes],
      findings: [...sum.findings, ...report.findings],
      slowest: [...sum.slowest, ...report.slowest].sort((a, b) => b.ms - a.ms).slice(0, 5),
    }),
    { linted: 0, unparseable: 0, crashes: [], findings: [], slowest: [] } as ShardReport,
  );
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Linted ${total.linted} files in ${seconds} s (${total.unparseable} did not parse and were skipped).`);
  console.log(
    `Slowest: ${total.slowest.map((entry) => `${path.relative(folder, entry.file)} ${Math.round(entry.ms)} ms`).join(', ')}`,
  );
  console.log(`Findings: ${total.findings.length}`);
  for (const finding of total.findings.slice(0, 30)) {
    console.log(`  ${path.relative(folder, finding.file)}:${finding.line} ${finding.ruleId}`);
  }
  console.log(`Exceptions from the plugin's rules: ${total.crashes.length}`);
  for (const crash of total.crashes.slice(0, 20))
    console.log(`  ${path.relative(folder, crash.file)}: ${crash.error.split('\n')[0]}`);
  if (total.crashes.length > 0) process.exitCode = 1;
}

if (isMainThread) {
  await main();
} else {
  await whenSqlParserReady();
  parentPort!.postMessage(lintShard(workerData as string[]));
}
