import { allQuestions } from '../built-lesson.js';
import { LessonFileError } from '../json-reader.js';
import { idempotentConsumersLesson } from '../lesson-data.js';
import type { BuiltQuestion } from '../model.js';
import { describeFailure, LessonRunner, type HandlerRun } from '../runner.js';
import { idempotentConsumers } from '../../idempotent-consumers/index.js';
import { pgliteFromImage } from './pglite-node.js';
import { plainText } from './plain-text.js';

/**
 * `npm run lesson -- examples` prints one line per example, computed on PGlite (and, with
 * DATABASE_URL set, the two-connection races a real server can show). `npm run lesson -- quiz`
 * prints every question with the state each option produces and the option the database proves.
 * The exit status is 1 when any item fails or a declared answer disagrees with the database.
 */

const usage = 'usage: npm run lesson -- examples | quiz';

async function printExamples(runner: LessonRunner): Promise<boolean> {
  let allPassed = true;
  for (const example of idempotentConsumers.examples) {
    const result = await runner.runExample(example.anchor);
    if (result.ok) console.log(result.line);
    else {
      allPassed = false;
      console.log(`${result.number} ${describeFailure(result.failure)}`);
    }
  }
  const databaseUrl = process.env['DATABASE_URL'];
  if (databaseUrl) {
    // Loaded only when a server is named: pg is not needed for the PGlite lines.
    const { runRaces } = await import('./race.js');
    for (const race of await runRaces(idempotentConsumers.races, databaseUrl)) {
      if (race.ok) console.log(race.line);
      else {
        allPassed = false;
        console.log(`${race.label} ${race.failure}`);
      }
    }
  }
  return allPassed;
}

function runText(run: HandlerRun): string {
  return run.ok ? run.text : describeFailure(run.failure);
}

async function printQuestion(runner: LessonRunner, question: BuiltQuestion): Promise<boolean> {
  const check = await runner.checkQuestion(question.anchor);
  console.log(`${question.title}: ${plainText(question.promptHtml)}`);
  for (const delivery of question.deliveries) {
    const { id, ...fields } = delivery.message;
    const details = Object.entries(fields).map(([name, value]) => `${name}=${value}`).join(' ');
    console.log(`  delivery: worker ${delivery.worker} ${id} ${details}`);
  }
  if (question.observed) console.log(`  observed: ${question.observed}`);
  if (question.code && check.shipped) console.log(`  shown handler ${question.code.handler}: ${runText(check.shipped)}`);
  const labelWidth = Math.max(...question.options.map((option) => option.label.length));
  for (const option of question.options) {
    const run = check.options[option.id];
    const computed = run ? runText(run) : 'not run';
    const shownLabel = option.labelKind === 'code' ? `${option.label.padEnd(labelWidth)}  -> ${computed}` : computed;
    console.log(`  ${option.id}) ${shownLabel}${check.provenRight.includes(option.id) ? '   <- proven right' : ''}`);
  }
  const agrees = check.provenRight.length === 1 && check.provenRight[0] === question.answer;
  console.log(
    `  the database proves ${check.provenRight.join(', ') || 'no option'} (${check.criterion}); ` +
      `the lesson declares ${question.answer}${agrees ? '' : ' - THEY DISAGREE'}`,
  );
  console.log('');
  return agrees;
}

async function main(command: string | undefined): Promise<number> {
  if (command !== 'examples' && command !== 'quiz') {
    console.error(usage);
    return 2;
  }
  const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
  try {
    if (command === 'examples') return (await printExamples(runner)) ? 0 : 1;
    let allAgree = true;
    for (const question of allQuestions(idempotentConsumersLesson)) allAgree = (await printQuestion(runner, question)) && allAgree;
    return allAgree ? 0 : 1;
  } finally {
    await runner.close();
  }
}

try {
  process.exitCode = await main(process.argv[2]);
} catch (error) {
  console.error(error instanceof LessonFileError ? `lesson error: ${error.message}` : `lesson: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
