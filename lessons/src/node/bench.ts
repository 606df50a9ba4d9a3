import { availableParallelism } from 'node:os';

import { PGlite } from '@electric-sql/pglite';

import { idempotentConsumers } from '../../idempotent-consumers/index.js';
import { LessonRunner } from '../runner.js';
import { pgliteFromImage } from './pglite-node.js';

/**
 * `npm run bench -w lessons`: how long a learner waits. Time to a ready database from the prepared
 * image, against initdb measured in the same run as the baseline; then the median time of each
 * example and of each quiz check (one handler over its question's deliveries, on a fresh database).
 */

const readyTarget = 1000;
const itemTarget = 20;
const rounds = 25;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

async function timed<T>(work: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await work();
  return [performance.now() - started, result];
}

const verdict = (value: number, target: number) => (value <= target ? 'ok' : 'OVER TARGET');

async function main(): Promise<number> {
  console.log(
    `lessons bench: PGlite, Node ${process.version}, ${availableParallelism()} cores, medians of ${rounds} rounds`,
  );

  const [initdbMs, baseline] = await timed(() => PGlite.create());
  await baseline.close();
  const readyTimes: number[] = [];
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const [ms, database] = await timed(() => pgliteFromImage()());
    readyTimes.push(ms);
    await database.close();
  }
  const ready = median(readyTimes);
  console.log(
    `ready database from the prepared image: ${ready.toFixed(0)} ms (median of 3; initdb baseline ${initdbMs.toFixed(0)} ms, ratio ${(ready / initdbMs).toFixed(2)})  target <= ${readyTarget} ms: ${verdict(ready, readyTarget)}`,
  );

  const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
  let worst = 0;
  let failures = 0;
  try {
    const report = async (label: string, run: () => Promise<boolean>) => {
      const times: number[] = [];
      await run(); // warm-up: first runs compile statements and fill caches
      for (let round = 0; round < rounds; round += 1) {
        const [ms, ok] = await timed(run);
        if (!ok) failures += 1;
        times.push(ms);
      }
      const value = median(times);
      worst = Math.max(worst, value);
      console.log(`${label.padEnd(34)} ${value.toFixed(2).padStart(7)} ms  ${verdict(value, itemTarget)}`);
    };
    for (const example of idempotentConsumers.examples) {
      await report(`example ${example.number}`, async () => (await runner.runExample(example.anchor)).ok);
    }
    for (const question of idempotentConsumers.questions) {
      for (const which of [...(question.shipped ? ['shipped'] : []), ...Object.keys(question.options)]) {
        await report(
          `quiz check ${question.anchor} ${which === 'shipped' ? 'shown handler' : `option ${which}`}`,
          async () => (await runner.runHandler(question.anchor, which)).ok,
        );
      }
    }
    for (const question of idempotentConsumers.questions) {
      const [ms, check] = await timed(() => runner.checkQuestion(question.anchor));
      console.log(
        `${`whole question ${question.anchor}`.padEnd(34)} ${ms.toFixed(2).padStart(7)} ms  (every option once; ${check.provenRight.join(',')} proven right)`,
      );
    }
  } finally {
    await runner.close();
  }
  console.log(`slowest item median ${worst.toFixed(2)} ms, target <= ${itemTarget} ms: ${verdict(worst, itemTarget)}`);
  if (failures > 0) console.log(`${failures} runs failed`);
  return failures > 0 ? 1 : 0;
}

process.exitCode = await main();
