import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';

import { allQuestions } from '../built-lesson.js';
import { LessonFileError } from '../json-reader.js';
import { idempotentConsumersLesson } from '../lesson-data.js';
import { recordedRacesFile } from '../build/recorded-races.js';
import type { BuiltQuestion, RecordedRaces } from '../model.js';
import { describeFailure, LessonRunner, type HandlerRun } from '../runner.js';
import type { ExampleScenario } from '../scenario.js';
import { formatStatementResults, formatTimeline, formatTranscript, type Transcript } from '../transcript.js';
import { idempotentConsumers } from '../../idempotent-consumers/index.js';
import { raceExercise } from './exercise-race.js';
import { lessonFolder } from './paths.js';
import { pgliteFromImage } from './pglite-node.js';
import { plainText } from './plain-text.js';
import { placeNamed, readLesson } from './read-lesson.js';
import { Terminal } from './terminal.js';

/**
 * `npm run lesson -- <command>`: see `help` below. The exit status is 1 when any item fails or a
 * declared answer disagrees with the database, 2 for a command it does not know.
 */

const help = `Idempotent consumers: a lesson whose every result is computed on PostgreSQL
(PGlite on this machine, or a server named by DATABASE_URL).

usage: npm run lesson -- <command> [--transcript]

commands:
  read [place]       the lesson's text; a place shows one part: step-7 (or 7), 4.5, q2,
                     steps, examples, questions, tips, sources, related
  examples           run every example and print its result lines; with DATABASE_URL set,
                     also race two workers on two connections and print each timeline
  quiz               every question, the state each option leaves, the option proven right
  take               the quiz for a learner: answer each question, then see it run
  console <example>  a SQL prompt on the database an example left, e.g. console 4.1
  exercise [id]      the exercises (one per rule of the linter), or one exercise's task and
                     its starting handler; then, with the handler saved and mended in a file:
                     exercise <id> --check <file>   run it on every schedule that breaks handlers
                     exercise <id> --starter        only the starting handler, to save to a file
                     exercise <id> --solution       the model solution, once you have checked a try
  record-races       run the races on DATABASE_URL and keep them for hosts without a server
  help               this text (also -h, --help)

options:
  --transcript       with examples or quiz: the SQL behind each result

Prose is wrapped to the terminal's width; colour is used only on a terminal, and never
when NO_COLOR is set.`;

const terminal = new Terminal(process.stdout, process.env);

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
    const details = Object.entries(fields)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
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
    const shownLabel = option.labelKind === 'code' ? `${names[index].padEnd(labelWidth)}  -> ${computed}` : computed;
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

/**
 * The quiz for a learner at a terminal: the prediction first (not scored: it comes before the
 * lesson), then each question numbered, an answer, and what the database says.
 */
async function takeQuiz(runner: LessonRunner): Promise<boolean> {
  const nextLine = inputLines();
  const lesson = idempotentConsumersLesson;
  const scored = lesson.questions.length;
  let right = 0;
  let answered = 0;
  for (const question of allQuestions(lesson)) {
    const title =
      question.number === null ? `${question.title} (not scored)` : `Question ${question.number} of ${scored}`;
    console.log(`\n${terminal.style('bold', title)}\n${terminal.prose(plainText(question.scenarioHtml))}`);
    printQuestionSetting(question);
    if (question.code) console.log(`\n${question.code.source.replace(/^(?=.)/gm, '    ')}\n`);
    console.log(terminal.prose(plainText(question.promptHtml)));
    for (const option of question.options) {
      const id = terminal.style('cyan', `${option.id})`);
      console.log(
        option.label.includes('\n')
          ? `  ${id}\n${option.label.replace(/^(?=.)/gm, '      ')}\n`
          : `  ${id} ${option.label}`,
      );
    }
    const ids = question.options.map((option) => option.id);
    let choice: string | undefined;
    while (choice === undefined) {
      process.stdout.write(`Your answer (${ids.join('/')}): `);
      const line = await nextLine();
      if (!process.stdin.isTTY) console.log(line ?? ''); // piped answers are not echoed by a terminal
      if (line === undefined) {
        console.log(`\nStopped after ${answered} of ${scored} questions: ${right} right.`);
        return true;
      }
      const typed = line.trim().toLowerCase();
      if (ids.includes(typed)) choice = typed;
      else console.log(`Please type one of ${ids.join(', ')}.`);
    }
    const check = await runner.checkQuestion(question.anchor);
    const option = (id: string) => question.options.find((candidate) => candidate.id === id)!;
    const isRight = check.provenRight.includes(choice);
    if (question.number !== null) {
      answered += 1;
      if (isRight) right += 1;
    }
    const proven = check.provenRight.join(', ') || 'no option';
    console.log(
      isRight
        ? terminal.labelled(terminal.style('green', 'Right: '), `the database proves ${choice} (${check.criterion}).`)
        : terminal.labelled(
            terminal.style('yellow', 'Not this time: '),
            `the database proves ${proven} (${check.criterion}).`,
          ),
    );
    // Options that are code are told apart by the state each left; a state option is its own state.
    if (question.options.some((candidate) => candidate.labelKind === 'code')) {
      for (const candidate of question.options) {
        const run = check.options[candidate.id];
        const marks = [
          candidate.id === choice ? 'your answer' : '',
          check.provenRight.includes(candidate.id) ? 'proven right' : '',
        ]
          .filter(Boolean)
          .join(', ');
        console.log(
          `  ${candidate.id}) leaves ${run ? runText(run) : 'nothing: not run'}${marks ? `   <- ${marks}` : ''}`,
        );
      }
    }
    console.log(terminal.prose(plainText(option(choice).explanationHtml)));
    for (const id of isRight ? [] : check.provenRight)
      console.log(terminal.labelled(`${id}: `, plainText(option(id).explanationHtml)));
  }
  console.log(`\n${right} of ${scored} right, every answer computed on ${runner.engine}.`);
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
  if (!databaseUrl)
    throw new UsageError(
      'record-races needs a PostgreSQL server: set DATABASE_URL, or run it through lessons/scripts/with-postgres.sh',
    );
  const { runRaces } = await import('./race.js');
  const results = await runRaces(idempotentConsumers.races, databaseUrl);
  const failed = results.filter((result) => !result.ok);
  if (failed.length > 0) {
    for (const result of failed) console.log(`${result.label} ${result.ok ? '' : result.failure}`);
    return false;
  }
  const races = results.flatMap((result) =>
    result.ok
      ? [{ result, anchor: idempotentConsumers.races.find((race) => race.label === result.label)!.anchor }]
      : [],
  );
  const recorded: RecordedRaces = {
    recordedOn: new Date().toISOString().slice(0, 10),
    engine: races[0].result.engine,
    races: races.map(({ result, anchor }) => ({
      anchor,
      label: result.label,
      line: result.line,
      timeline: result.timeline,
    })),
  };
  const file = recordedRacesFile(lessonFolder(idempotentConsumers.id));
  await writeFile(file, `${JSON.stringify(recorded, null, 2)}\n`);
  for (const race of recorded.races) console.log(race.line);
  console.log(
    `recorded on ${recorded.engine} in ${file}; rebuild the lesson (npm run build -w lessons) to show it in the panel`,
  );
  return true;
}

function exampleNumbered(number: string | undefined): ExampleScenario {
  const example = idempotentConsumers.examples.find((candidate) => candidate.number === number);
  if (example) return example;
  const numbers = idempotentConsumers.examples.map((each) => each.number).join(', ');
  throw new UsageError(
    `${number === undefined ? 'name an example' : `there is no example ${number}`}; the examples are ${numbers}`,
  );
}

interface CommandLine {
  command: string | undefined;
  operands: string[];
  withTranscript: boolean;
  help: boolean;
  exercise: { check?: string; starter: boolean; solution: boolean };
}

function parseCommandLine(argv: string[]): CommandLine {
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        transcript: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        check: { type: 'string' },
        starter: { type: 'boolean' },
        solution: { type: 'boolean' },
      },
    });
    const [command, ...operands] = positionals;
    if ((values.check !== undefined || values.starter || values.solution) && command !== 'exercise')
      throw new UsageError('--check, --starter and --solution go with exercise');
    return {
      command,
      operands,
      withTranscript: values.transcript ?? false,
      help: values.help ?? false,
      exercise: {
        ...(values.check !== undefined ? { check: values.check } : {}),
        starter: values.starter ?? false,
        solution: values.solution ?? false,
      },
    };
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(error instanceof Error ? error.message.split('\n')[0] : String(error));
  }
}

/** Where the CLI notes which exercises a learner has checked a try of, so the model solution can wait for one. */
const triesFile = join(tmpdir(), 'idempotency-lesson', 'exercise-tries.json');

async function triedExercises(): Promise<string[]> {
  try {
    return JSON.parse(await readFile(triesFile, 'utf8')) as string[];
  } catch {
    return [];
  }
}

async function exerciseCommand(id: string | undefined, options: CommandLine['exercise']): Promise<number> {
  const exercises = idempotentConsumers.exercises;
  if (id === undefined) {
    console.log(terminal.style('bold', 'Exercises: mend a handler, then let PostgreSQL try to break it'));
    const width = Math.max(...exercises.map((exercise) => exercise.id.length));
    for (const exercise of exercises)
      console.log(`  ${exercise.id.padEnd(width)}  ${exercise.title} (${exercise.rule})`);
    console.log(terminal.prose('\nStart one with npm run lesson -- exercise <id>.'));
    return 0;
  }
  const exercise = exercises.find((candidate) => candidate.id === id);
  if (!exercise)
    throw new UsageError(
      `there is no exercise "${id}"; the exercises are ${exercises.map((each) => each.id).join(', ')}`,
    );
  if (options.starter) {
    process.stdout.write(exercise.starter);
    return 0;
  }
  if (options.solution) {
    if (!(await triedExercises()).includes(exercise.id)) {
      console.log(
        terminal.prose(
          `Try it first: save the handler with npm run lesson -- exercise ${exercise.id} --starter > mine.txt, mend it, and check it with npm run lesson -- exercise ${exercise.id} --check mine.txt. The model solution opens after one check.`,
        ),
      );
      return 0;
    }
    console.log(`Model solution for ${exercise.id}:\n\n${exercise.model.replace(/^(?=.)/gm, '    ')}`);
    return 0;
  }
  if (options.check === undefined) {
    console.log(`${terminal.style('bold', exercise.title)} (${exercise.rule})\n${terminal.prose(exercise.task)}\n`);
    console.log(`The handler:\n\n${exercise.starter.replace(/^(?=.)/gm, '    ')}`);
    console.log(
      terminal.prose(
        `The checker runs it ${exercise.schedules.length} ways: ${exercise.schedules.map((schedule) => schedule.name).join(', ')}. ` +
          `Save it with npm run lesson -- exercise ${exercise.id} --starter > mine.txt, mend mine.txt, then run npm run lesson -- exercise ${exercise.id} --check mine.txt.`,
      ),
    );
    return 0;
  }
  let text: string;
  try {
    text = await readFile(options.check, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${options.check}`);
  }
  const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
  try {
    const check = await runner.checkExercise(exercise.id, text);
    if (!check.ok) {
      console.log(`${options.check}: ${check.error}`);
      return 1;
    }
    const tried = await triedExercises();
    if (!tried.includes(exercise.id)) {
      await mkdir(join(tmpdir(), 'idempotency-lesson'), { recursive: true });
      await writeFile(triesFile, JSON.stringify([...tried, exercise.id]));
    }
    for (const run of check.runs) {
      const verdict = run.broken ? terminal.style('yellow', 'broken') : terminal.style('green', 'holds');
      console.log(`${verdict}  ${terminal.style('bold', run.schedule)}: ${terminal.prose(run.story)}`);
      console.log(`        ${run.deliveries.join(', ')}; left ${run.state}`);
      if (run.broken) console.log(terminal.prose(run.broken, '        '));
      if (run.hint) console.log(terminal.prose(`hint: ${run.hint}`, '        '));
    }
    // With a server, two workers at once also run on two real connections, where one can wait for the other.
    const url = process.env['DATABASE_URL'];
    const raced = url ? await raceExercise(exercise, text, url) : undefined;
    if (raced && !raced.ok) console.log(`\nOn the server, two workers at once did not run: ${raced.error}`);
    if (raced?.ok) {
      const { run } = raced;
      const verdict = run.broken ? terminal.style('yellow', 'broken') : terminal.style('green', 'holds');
      console.log(
        `${verdict}  ${terminal.style('bold', run.schedule)}, on ${run.race.engine}, two connections: ${run.deliveries.join(', ')}; left ${run.state}`,
      );
      if (run.broken) console.log(terminal.prose(run.broken, '        '));
    }
    const passed = check.passed && (!raced || (raced.ok && raced.run.broken === null));
    console.log(
      passed
        ? `\nEvery schedule left the right state, computed on ${runner.engine}${raced ? ' and, for two workers at once, on the server' : ''}.`
        : `\n${check.runs.filter((run) => run.broken).length} of ${check.runs.length} schedules broke it${raced?.ok && raced.run.broken ? ' (and two workers at once on the server)' : ''}. The model solution: npm run lesson -- exercise ${exercise.id} --solution`,
    );
    return passed ? 0 : 1;
  } finally {
    await runner.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const { command, operands, withTranscript, help: wantsHelp, exercise } = parseCommandLine(argv);
  if (wantsHelp || command === 'help') {
    console.log(help);
    return 0;
  }
  const takes: Record<string, { operands: number; transcript: boolean }> = {
    read: { operands: 1, transcript: false },
    examples: { operands: 0, transcript: true },
    quiz: { operands: 0, transcript: true },
    take: { operands: 0, transcript: false },
    console: { operands: 1, transcript: false },
    exercise: { operands: 1, transcript: false },
    'record-races': { operands: 0, transcript: false },
  };
  const shape = command === undefined ? undefined : takes[command];
  if (!shape) throw new UsageError(command === undefined ? 'name a command' : `there is no command "${command}"`);
  if (operands.length > shape.operands)
    throw new UsageError(
      `${command} takes ${shape.operands === 0 ? 'nothing' : 'one name'} after it, not "${operands.join(' ')}"`,
    );
  if (withTranscript && !shape.transcript)
    throw new UsageError(`--transcript goes with examples or quiz, not ${command}`);
  if (command === 'read') {
    const place = operands[0] === undefined ? undefined : placeNamed(idempotentConsumersLesson, operands[0]);
    if (operands[0] !== undefined && place === undefined) {
      throw new UsageError(
        `the lesson has no place "${operands[0]}"; try ${idempotentConsumersLesson.places.map((each) => each.anchor).join(', ')}, or an example number such as 4.5`,
      );
    }
    console.log(readLesson(idempotentConsumersLesson, terminal, place));
    return 0;
  }
  if (command === 'record-races') return (await recordRaces()) ? 0 : 1;
  if (command === 'exercise') return exerciseCommand(operands[0], exercise);
  const others = operands;
  const example = command === 'console' ? exampleNumbered(others[0]) : undefined;
  const runner = await LessonRunner.open(idempotentConsumers, pgliteFromImage());
  try {
    if (command === 'examples') return (await printExamples(runner, withTranscript)) ? 0 : 1;
    if (command === 'take') return (await takeQuiz(runner)) ? 0 : 1;
    if (example) return (await sqlConsole(runner, example)) ? 0 : 1;
    let allAgree = true;
    for (const question of allQuestions(idempotentConsumersLesson))
      allAgree = (await printQuestion(runner, question, withTranscript)) && allAgree;
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
    console.error(`lesson: ${error.message}\n(npm run lesson -- --help lists the commands)`);
    process.exitCode = 2;
  } else {
    console.error(
      error instanceof LessonFileError
        ? `lesson error: ${error.message}`
        : `lesson: ${error instanceof Error ? error.message : String(error)}`,
    );
    process.exitCode = 1;
  }
}
