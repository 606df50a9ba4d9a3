import { writeFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';

import { allQuestions } from '../built-lesson.js';
import { LessonFileError } from '../json-reader.js';
import { idempotentConsumersLesson } from '../lesson-data.js';
import { recordedRacesFile } from '../build/recorded-races.js';
import type { BuiltQuestion, RecordedRaces } from '../model.js';
import { describeFailure, LessonRunner, type HandlerRun } from '../runner.js';
import type { ExampleScenario } from '../scenario.js';
import { formatStatementResults, formatTimeline, formatTranscript, type Transcript } from '../transcript.js';
import { idempotentConsumers } from '../../idempotent-consumers/index.js';
import { lessonFolder } from './paths.js';
import { pgliteFromImage } from './pglite-node.js';
import { plainText } from './plain-text.js';

/**
 * `npm run lesson -- examples` prints the lines of each example, computed on PGlite (and, with
 * DATABASE_URL set, the two-connection races a real server can show, each with its timeline).
 * `quiz` prints every question with the state each option produces and the option the database
 * proves; `--transcript` adds the SQL behind each result. `take` asks the questions one by one and
 * runs each answer; `console 4.1` opens a SQL prompt on example 4.1's database after its run.
 * The exit status is 1 when any item fails or a declared answer disagrees with the database.
 */

const usage = 'usage: npm run lesson -- examples [--transcript] | quiz [--transcript] | take | console <example, e.g. 4.1> | record-races';

class UsageError extends Error {}

/** Lines typed on standard input, one at a time; `undefined` once it ends. */
function inputLines(): () => Promise<string | undefined> {
  const lines = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  return async () => {
    const next = await lines.next();
    return next.done ? undefined : next.value;
  };
}

function printTranscript(transcript: Transcript): void {
  console.log(formatTranscript(transcript).replace(/^/gm, '    '));
}

async function printExamples(runner: LessonRunner, withTranscript: boolean): Promise<boolean> {
  let allPassed = true;
  for (const example of idempotentConsumers.examples) {
    const result = await runner.runExample(example.anchor);
    if (result.ok) console.log(result.line);
    else {
      allPassed = false;
      console.log(`${result.number} ${describeFailure(result.failure)}`);
    }
    if (withTranscript) printTranscript(result.transcript);
  }
  console.log(`(computed on ${runner.engine}, one worker transaction at a time)`);
  const databaseUrl = process.env['DATABASE_URL'];
  if (databaseUrl) {
    // Loaded only when a server is named: pg is not needed for the PGlite lines.
    const { runRaces } = await import('./race.js');
    for (const race of await runRaces(idempotentConsumers.races, databaseUrl)) {
      if (race.ok) {
        console.log(race.line);
        console.log(formatTimeline(race.timeline).replace(/^/gm, '    '));
        console.log(`    (raced on ${race.engine}, two connections)`);
      } else {
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

function printQuestionSetting(question: BuiltQuestion): void {
  for (const delivery of question.deliveries) {
    const { id, ...fields } = delivery.message;
    const details = Object.entries(fields).map(([name, value]) => `${name}=${value}`).join(' ');
    console.log(`  delivery: worker ${delivery.worker} ${id} ${details}`);
  }
  if (question.observed) console.log(`  observed: ${question.observed}`);
}

async function printQuestion(runner: LessonRunner, question: BuiltQuestion, withTranscript: boolean): Promise<boolean> {
  const check = await runner.checkQuestion(question.anchor);
  console.log(`${question.title}: ${plainText(question.promptHtml)}`);
  printQuestionSetting(question);
  if (question.code && check.shipped) {
    console.log(`  shown handler ${question.code.handler}: ${runText(check.shipped)}`);
    if (withTranscript) printTranscript(check.shipped.transcript);
  }
  // A whole handler is named rather than printed; a one-line declaration is printed as it is.
  const names = question.options.map((option) => (option.label.includes('\n') ? option.code.handler : option.label));
  const labelWidth = Math.max(...names.map((name) => name.length));
  for (const [index, option] of question.options.entries()) {
    const run = check.options[option.id];
    const computed = run ? runText(run) : 'not run';
    const shownLabel = option.labelKind === 'code' ? `${names[index]!.padEnd(labelWidth)}  -> ${computed}` : computed;
    console.log(`  ${option.id}) ${shownLabel}${check.provenRight.includes(option.id) ? '   <- proven right' : ''}`);
    if (withTranscript && run) printTranscript(run.transcript);
  }
  const agrees = check.provenRight.length === 1 && check.provenRight[0] === question.answer;
  console.log(
    `  the database proves ${check.provenRight.join(', ') || 'no option'} (${check.criterion}); ` +
      `the lesson declares ${question.answer}${agrees ? '' : ' - THEY DISAGREE'}`,
  );
  console.log('');
  return agrees;
}

/** The quiz for a learner at a terminal: each question, an answer, then what the database says. */
async function takeQuiz(runner: LessonRunner): Promise<boolean> {
  const nextLine = inputLines();
  let right = 0;
  const questions = allQuestions(idempotentConsumersLesson);
  for (const question of questions) {
    console.log(`\n${question.title}\n${plainText(question.scenarioHtml)}`);
    printQuestionSetting(question);
    if (question.code) console.log(`\n${question.code.source.replace(/^/gm, '    ')}\n`);
    console.log(plainText(question.promptHtml));
    for (const option of question.options) {
      console.log(option.label.includes('\n') ? `  ${option.id})\n${option.label.replace(/^/gm, '      ')}\n` : `  ${option.id}) ${option.label}`);
    }
    const ids = question.options.map((option) => option.id);
    let choice: string | undefined;
    while (choice === undefined) {
      process.stdout.write(`Your answer (${ids.join('/')}): `);
      const line = await nextLine();
      if (!process.stdin.isTTY) console.log(line ?? ''); // piped answers are not echoed by a terminal
      if (line === undefined) {
        console.log(`\nStopped before the end: ${right} of ${questions.length} right so far.`);
        return true;
      }
      const typed = line.trim().toLowerCase();
      if (ids.includes(typed)) choice = typed;
      else console.log(`Please type one of ${ids.join(', ')}.`);
    }
    const check = await runner.checkQuestion(question.anchor);
    const chosen = check.options[choice];
    const option = (id: string) => question.options.find((candidate) => candidate.id === id)!;
    console.log(`  your answer, run:   ${chosen ? runText(chosen) : 'not run'}`);
    if (check.shipped) console.log(`  the shown handler: ${runText(check.shipped)}`);
    for (const id of check.provenRight.filter((id) => id !== choice)) console.log(`  option ${id}, run:      ${runText(check.options[id]!)}`);
    const isRight = check.provenRight.includes(choice);
    if (isRight) right += 1;
    console.log(isRight ? `Right: the database proves ${choice} (${check.criterion}).` : `Not this time: the database proves ${check.provenRight.join(', ') || 'no option'} (${check.criterion}).`);
    console.log(plainText(option(choice).explanationHtml));
    for (const id of isRight ? [] : check.provenRight) console.log(`${id}: ${plainText(option(id).explanationHtml)}`);
  }
  console.log(`\n${right} of ${questions.length} right, every answer computed on ${runner.engine}.`);
  return true;
}

/** A SQL prompt on the database an example's run left; statements end with `;`. */
async function sqlConsole(runner: LessonRunner, example: ExampleScenario): Promise<boolean> {
  const result = await runner.runExample(example.anchor);
  console.log(result.ok ? result.line : `${result.number} ${describeFailure(result.failure)}`);
  const last = result.transcript.at(-1);
  console.log(
    `SQL console on ${runner.engine}, on the database example ${example.number} left${result.transcript.length > 1 ? ` (its last part, ${last?.title})` : ''}: ` +
      `tables ${Object.keys(last?.tables ?? {}).join(', ') || 'none'}. End a statement with ; and leave with \\q or Ctrl-D. Nothing leaves this machine.`,
  );
  const nextLine = inputLines();
  let pending = '';
  for (;;) {
    process.stdout.write(pending ? '  -> ' : 'sql> ');
    const line = await nextLine();
    if (!process.stdin.isTTY) console.log(line ?? '');
    if (line === undefined || (pending === '' && line.trim() === '\\q')) break;
    pending = pending ? `${pending}\n${line}` : line;
    if (!pending.trim().endsWith(';')) continue;
    const run = await runner.runSql(pending);
    console.log(run.ok ? formatStatementResults(run.results) : `ERROR: ${run.error}`);
    pending = '';
  }
  console.log('');
  return true;
}

/** Runs the races on DATABASE_URL and keeps them beside the lesson, for hosts without a server. */
async function recordRaces(): Promise<boolean> {
  const databaseUrl = process.env['DATABASE_URL'];
  if (!databaseUrl) throw new UsageError('record-races needs a PostgreSQL server: set DATABASE_URL, or run it through lessons/scripts/with-postgres.sh');
  const { runRaces } = await import('./race.js');
  const results = await runRaces(idempotentConsumers.races, databaseUrl);
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) {
    for (const result of failed) console.log(`${result.label} ${result.ok ? '' : result.failure}`);
    return false;
  }
  const races = results.flatMap((result) => (result.ok ? [{ result, anchor: idempotentConsumers.races.find((race) => race.label === result.label)!.anchor }] : []));
  const recorded: RecordedRaces = {
    recordedOn: new Date().toISOString().slice(0, 10),
    engine: races[0]!.result.engine,
    races: races.map(({ result, anchor }) => ({ anchor, label: result.label, line: result.line, timeline: result.timeline })),
  };
  const file = recordedRacesFile(lessonFolder(idempotentConsumers.id));
  await writeFile(file, `${JSON.stringify(recorded, null, 2)}\n`);
  for (const race of recorded.races) console.log(race.line);
  console.log(`recorded on ${recorded.engine} in ${file}; rebuild the lesson (npm run build -w lessons) to show it in the panel`);
  return true;
}

function exampleNumbered(number: string | undefined): ExampleScenario {
  const example = idempotentConsumers.examples.find((candidate) => candidate.number === number);
  if (example) return example;
  const numbers = idempotentConsumers.examples.map((each) => each.number).join(', ');
  throw new UsageError(`${number === undefined ? 'name an example' : `there is no example ${number}`}; the examples are ${numbers}`);
}

async function main([command, ...rest]: string[]): Promise<number> {
  const withTranscript = rest.includes('--transcript');
  const others = rest.filter((argument) => argument !== '--transcript');
  const understood =
    ((command === 'examples' || command === 'quiz') && others.length === 0) ||
    ((command === 'take' || command === 'record-races') && rest.length === 0) ||
    (command === 'console' && others.length <= 1 && !withTranscript);
  if (!understood) {
    console.error(usage);
    return 2;
  }
  if (command === 'record-races') return (await recordRaces()) ? 0 : 1;
  const example = command === 'console' ? exampleNumbered(others[0]) : undefined;
  const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
  try {
    if (command === 'examples') return (await printExamples(runner, withTranscript)) ? 0 : 1;
    if (command === 'take') return (await takeQuiz(runner)) ? 0 : 1;
    if (example) return (await sqlConsole(runner, example)) ? 0 : 1;
    let allAgree = true;
    for (const question of allQuestions(idempotentConsumersLesson)) allAgree = (await printQuestion(runner, question, withTranscript)) && allAgree;
    console.log(`(computed on ${runner.engine})`);
    return allAgree ? 0 : 1;
  } finally {
    await runner.close();
  }
}

try {
  process.exitCode = await main(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError) {
    console.error(`lesson: ${error.message}`);
    process.exitCode = 2;
  } else {
    console.error(error instanceof LessonFileError ? `lesson error: ${error.message}` : `lesson: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  }
}
