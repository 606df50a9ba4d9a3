import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { packageRoot } from '../../lessons/src/node/paths.js';
import { exampleLines } from '../support/example-lines.js';

const cli = join(packageRoot, 'dist', 'src', 'node', 'cli.js');
const run = (command: string, ...rest: string[]) => {
  // Without a server, `examples` prints the PGlite lines only.
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  return promisify(execFile)(process.execPath, [cli, command, ...rest], { env: environment });
};

/** Runs the CLI with `input` as what the learner types. */
function runTyping(input: string, ...args: string[]): Promise<{ stdout: string; stderr: string; code: number | null }> {
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [cli, ...args], { env: environment }, (error, stdout, stderr) => {
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

  it('-- examples --transcript shows each worker\'s statements, their row counts and the final rows under each line', async () => {
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
    expect(lateReplay).toContain("WHERE balances.as_of < excluded.as_of RETURNING account_id  ['acct-9', 700, 17]  -> 0 rows, 0 changed");
    const claimAfterEffect = stdout.slice(stdout.indexOf('    -- check, credit, record, on a pool\n'), stdout.indexOf('    -- claim first, one transaction\n'));
    expect(claimAfterEffect).toContain(
      "    worker B  INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING  ['order-41-paid']  -> 0 rows, 0 changed\n",
    );
    expect(claimAfterEffect).toContain("    table effects: 2 rows\n      effect_id='cashback-41' amount=150\n      effect_id='cashback-41' amount=150\n");
  });

  it('-- console 4.1 runs SQL on the database the example left, with PostgreSQL\'s own error messages', async () => {
    const { stdout, code } = await runTyping('SELECT message_id FROM inbox\n  ORDER BY message_id;\nSELECT nope FROM inbox;\n\\q\n', 'console', '4.1');
    expect(code).toBe(0);
    expect(stdout).toContain('message_id\n------------\nnotice-amber\nnotice-birch\n(2 rows)');
    expect(stdout).toContain('ERROR: column "nope" does not exist');
  });

  it('-- console names the examples when it is given one that does not exist', async () => {
    const { stderr, code } = await runTyping('', 'console', '9.9');
    expect(code).toBe(2);
    expect(stderr.trim()).toBe('lesson: there is no example 9.9; the examples are 4.1, 4.2, 4.3, 4.4, 4.5, 4.6, 4.7, 4.8');
  });

  it('-- take asks each question, runs the answer typed and shows both states', async () => {
    const { stdout, code } = await runTyping('b\nmaybe\na\n', 'take');
    expect(code).toBe(0);
    expect(stdout).toContain('Right: the database proves b (the state the shown handler produces: inbox=1 effects=1 sum=500).');
    expect(stdout).toContain('Please type one of a, b, c, d.');
    expect(stdout).toContain('  your answer, run:   inbox=3 effects=3 sum=1300\n  the shown handler: inbox=2 effects=2 sum=800\n');
    expect(stdout).toContain('Not this time: the database proves c');
    expect(stdout).toContain('Stopped before the end: 1 of 8 right so far.');
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

  it('rejects an unknown command with its usage and status 2, without a stack trace', async () => {
    const failure = (await run('lecture').then(() => undefined, (error: unknown) => error)) as { code: number; stderr: string } | undefined;
    expect(failure?.code).toBe(2);
    expect(failure?.stderr.trim()).toBe('usage: npm run lesson -- examples [--transcript] | quiz [--transcript] | take | console <example, e.g. 4.1> | record-races');
  });
});
