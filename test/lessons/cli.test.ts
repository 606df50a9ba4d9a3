import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { packageRoot } from '../../lessons/src/node/paths.js';
import { exampleLines } from '../support/example-lines.js';

const cli = join(packageRoot, 'dist', 'src', 'node', 'cli.js');
/** The environment the CLI runs in: no server (so `examples` prints the PGlite lines only), no width to wrap to. */
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const { DATABASE_URL: _server, COLUMNS: _columns, NO_COLOR: _noColour, ...rest } = process.env;
  return { ...rest, ...extra };
}

const run = (command: string, ...rest: string[]) =>
  promisify(execFile)(process.execPath, [cli, command, ...rest], { env: environment() });

/** Runs the CLI with `input` as what the learner types. */
function runTyping(input: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [cli, ...args], { env: environment() }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ stdout, stderr, code: child.exitCode });
    });
    child.stdin?.end(input);
  });
}

describe('npm run lesson', () => {
  it('-- examples prints the four original example lines, then the new ones, and nothing else', async () => {
    const { stdout } = await run('examples');
    expect(stdout.trim().split('\n')).toEqual([
      ...exampleLines,
      '(computed on PGlite, one worker transaction at a time)',
    ]);
  });

  it("-- examples --transcript shows each worker's statements, their row counts and the final rows under each line", async () => {
    const { stdout } = await run('examples', '--transcript');
    const rollback = stdout.slice(stdout.indexOf('4.3 rollback'), stdout.indexOf('4.4 effect identity'));
    expect(rollback).toContain(
      "    worker A  INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id  ['payout-cedar-1']  -> 1 row, 1 changed\n" +
        "    worker A  INSERT INTO effects(effect_id, amount) VALUES ($1, $2)  ['payout-cedar', 250]  -> 0 rows, 1 changed\n" +
        '    worker A  ROLLBACK\n',
    );
    expect(rollback).toContain("    table effects: 1 row\n      effect_id='payout-cedar' amount=250\n");
    const lateReplay = stdout.slice(stdout.indexOf('4.5 late replay'));
    expect(lateReplay).toContain('    -- sequence guard\n');
    expect(lateReplay).toContain(
      "WHERE balances.as_of < excluded.as_of RETURNING account_id  ['acct-9', 700, 17]  -> 0 rows, 0 changed",
    );
    const claimAfterEffect = stdout.slice(
      stdout.indexOf('    -- check, credit, record, on a pool\n'),
      stdout.indexOf('    -- claim first, one transaction\n'),
    );
    expect(claimAfterEffect).toContain(
      "    worker B  INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING  ['order-41-paid']  -> 0 rows, 0 changed\n",
    );
    expect(claimAfterEffect).toContain(
      "    table effects: 2 rows\n      effect_id='cashback-41' amount=150\n      effect_id='cashback-41' amount=150\n",
    );
  });

  it("-- console 4.1 runs SQL on the database the example left, with PostgreSQL's own error messages", async () => {
    const { stdout, code } = await runTyping(
      'SELECT message_id FROM inbox\n  ORDER BY message_id;\nSELECT nope FROM inbox;\n\\q\n',
      'console',
      '4.1',
    );
    expect(code).toBe(0);
    expect(stdout).toContain('message_id\n------------\nnotice-amber\nnotice-birch\n(2 rows)');
    expect(stdout).toContain('ERROR: column "nope" does not exist');
  });

  it('-- console names the examples when it is given one that does not exist', async () => {
    const { stderr, code } = await runTyping('', 'console', '9.9');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'lesson: there is no example 9.9; the examples are 4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7, 4.8, 4.9, 4.10, 4.11, 4.12, 4.13, 4.14\n(npm run lesson -- --help lists the commands)',
    );
  });

  it('-- take asks each question, numbered, runs the answer typed and does not score the prediction', async () => {
    const { stdout, code } = await runTyping('b\nmaybe\na\n', 'take');
    expect(code).toBe(0);
    expect(stdout).toContain('Predict before you read (not scored)\n');
    expect(stdout).toContain(
      'Right: the database proves b (the state the shown handler produces: inbox=1 effects=1 sum=500).',
    );
    expect(stdout).toContain('Question 1 of 7\n');
    expect(stdout).toContain('Please type one of a, b, c, d.');
    expect(stdout).toContain(
      'Not this time: the database proves c (the state the shown handler produces: inbox=2 effects=2 sum=800).',
    );
    // A state option is its own state: it is not repeated back as "your answer, run".
    expect(stdout).not.toContain('your answer, run');
    expect(stdout).toContain('Stopped after 1 of 7 questions: 0 right.');
  });

  it('-- take scores the seven questions only, and shows the state each code option left', async () => {
    // A wrong prediction, then every question right.
    const { stdout, code } = await runTyping('a\nc\nd\nb\nc\nb\nc\nc\n', 'take');
    expect(code).toBe(0);
    expect(stdout).toContain('Question 7 of 7\n');
    expect(stdout).toContain('  c) leaves inbox=2 claims=0 effects=2   <- your answer, proven right\n');
    expect(stdout).toContain('  b) leaves inbox=1 claims=0 effects=1\n');
    expect(stdout).toContain('\n7 of 7 right, every answer computed on PGlite.');
  });

  it('-- exercise shows a task, checks a mended handler on every schedule, and opens the model solution only after a try', async () => {
    const tries = await mkdtemp(join(tmpdir(), 'lesson-tries-'));
    const inTries = { env: environment({ TMPDIR: tries }) };
    const exec = (...args: string[]) =>
      promisify(execFile)(process.execPath, [cli, 'exercise', ...args], inTries).catch(
        (error: { stdout: string; code: number }) => error,
      );
    const listing = await exec();
    expect(listing.stdout).toContain(
      '  claim-after-effect  Claim before the effect, in its transaction (no-claim-after-effect)',
    );
    const starter = (await exec('claim-after-effect', '--starter')).stdout;
    expect(starter.startsWith('table: CREATE TABLE inbox (message_id text PRIMARY KEY);\n')).toBe(true);
    expect((await exec('claim-after-effect', '--solution')).stdout).toContain('Try it first');
    const file = join(tries, 'mine.txt');
    await writeFile(file, starter);
    const broken = (await exec('claim-after-effect', '--check', file)) as { stdout: string; code?: number };
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      'broken  two workers at once: workers A and B both get order-71-paid at the same moment; their statements alternate\n        A=done, B=done; left effects=2 sum=260\n',
    );
    expect(broken.stdout).toContain(
      'broken  a crash between statements: worker A dies after statement 2 of order-71-paid; worker B gets order-71-paid again\n',
    );
    expect(broken.stdout).toContain('hint: Both workers checked before either recorded.');
    expect(broken.stdout).toContain('2 of 4 schedules broke it.');
    const solution = (await exec('claim-after-effect', '--solution')).stdout;
    expect(solution).toContain('    transaction: one\n');
    await writeFile(file, solution.replace(/^Model solution.*\n\n/, '').replace(/^ {4}/gm, ''));
    const mended = (await exec('claim-after-effect', '--check', file)) as { stdout: string; code?: number };
    expect(mended.stdout).toContain('Every schedule left the right state, computed on PGlite.');
    expect(mended.code ?? 0).toBe(0);
  });

  it('--help lists every command and exits 0', async () => {
    for (const flag of ['--help', '-h', 'help']) {
      const { stdout, stderr } = await run(flag);
      expect(stderr).toBe('');
      for (const command of [
        'read [place]',
        'examples',
        'quiz',
        'take',
        'console <example>',
        'exercise [id]',
        '--check <file>',
        'record-races',
        '--transcript',
        'NO_COLOR',
      ])
        expect(stdout).toContain(command);
    }
  });

  it('-- read prints the lesson text, or one place of it, with no colour when piped', async () => {
    const { stdout } = await run('read');
    for (const heading of [
      'Idempotent consumers beyond the exactly-once promise',
      'Step 1 of 10',
      'Step 10 of 10',
      'Example 4.8:',
      'Question 7 of 7',
      'Tip 2',
      'Sources',
    ])
      expect(stdout).toContain(heading);
    expect(stdout).toContain('async function claimThenCredit(');
    expect(stdout).not.toContain('\u001b[');
    const step = await run('read', '7');
    expect(step.stdout.startsWith('Step 7 of 10\nAn assignment survives a repeat, not a late arrival.')).toBe(true);
    expect(step.stdout).not.toContain('Step 6');
    const failure = (await run('read', 'chapter-9').then(
      () => undefined,
      (error: unknown) => error,
    )) as { code: number; stderr: string };
    expect(failure.code).toBe(2);
    expect(failure.stderr).toContain(
      'lesson: the lesson has no place "chapter-9"; try predict, thirty-seconds, step-1',
    );
  });

  it('wraps prose at words to the width it is given, and leaves code and result lines whole', async () => {
    const wide = await run('read', 'example-4-5');
    const narrow = await promisify(execFile)(process.execPath, [cli, 'read', 'example-4-5'], {
      env: environment({ COLUMNS: '48' }),
    });
    const prose = (text: string) => text.slice(0, text.indexOf('A claim that names the worker'));
    const proseLines = prose(narrow.stdout).split('\n');
    expect(Math.max(...proseLines.map((line) => line.length))).toBeLessThanOrEqual(48);
    expect(proseLines.length).toBeGreaterThan(prose(wide.stdout).split('\n').length);
    // Only line breaks moved: no word was cut.
    expect(prose(narrow.stdout).replace(/\s+/g, ' ')).toBe(prose(wide.stdout).replace(/\s+/g, ' '));
    expect(narrow.stdout).toContain(
      "        'INSERT INTO balances(account_id, cents, as_of) VALUES ($1, $2, $3) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents, as_of = excluded.as_of',\n",
    );
    const { stdout } = await promisify(execFile)(process.execPath, [cli, 'examples'], {
      env: environment({ COLUMNS: '48' }),
    });
    expect(stdout.trim().split('\n')).toEqual([
      ...exampleLines,
      '(computed on PGlite, one worker transaction at a time)',
    ]);
  });

  it('-- quiz prints every option with its state and the option the database proves', async () => {
    const { stdout } = await run('quiz');
    expect(stdout).toContain('  c) inbox=2 effects=2 sum=800   <- proven right');
    expect(stdout).toContain('  d) inbox=2 balance=900   <- proven right');
    expect(stdout).toContain('the database proves b (reproduces inbox=3 effects=1 sum=400); the lesson declares b');
    expect(stdout.match(/<- proven right/g)).toHaveLength(8);
    expect(stdout).toContain('  b) example-4-6#claimThenCredit   -> inbox=1 effects=1 sum=240   <- proven right');
    expect(stdout).toContain('the database proves c (reproduces inbox=2 claims=0 effects=2); the lesson declares c');
    expect(stdout).not.toContain('DISAGREE');
  });

  it('rejects an unknown command or option with status 2, pointing at --help, without a stack trace', async () => {
    for (const [args, message] of [
      [['lecture'], 'lesson: there is no command "lecture"'],
      [['take', '--transcript'], 'lesson: --transcript goes with examples or quiz, not take'],
      [['quiz', '--verbose'], "lesson: Unknown option '--verbose'"],
    ] as const) {
      const failure = (await run(args[0], ...args.slice(1)).then(
        () => undefined,
        (error: unknown) => error,
      )) as { code: number; stderr: string } | undefined;
      expect(failure?.code).toBe(2);
      expect(failure?.stderr.trim()).toMatch(
        new RegExp(
          `^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*\n\\(npm run lesson -- --help lists the commands\\)$`,
        ),
      );
    }
  });
});
