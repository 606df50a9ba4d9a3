import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { packageRoot } from '../../lessons/src/node/paths.js';

const cli = join(packageRoot, 'dist', 'src', 'node', 'cli.js');
const run = (command: string) => {
  // Without a server, `examples` prints the PGlite lines only.
  const { DATABASE_URL: _ignored, ...environment } = process.env;
  return promisify(execFile)(process.execPath, [cli, command], { env: environment });
};

describe('npm run lesson', () => {
  it('-- examples prints the four original example lines, then the new ones, and nothing else', async () => {
    const { stdout } = await run('examples');
    expect(stdout.trim().split('\n')).toEqual([
      '4.1 inbox claims: notice-amber=fresh, notice-birch=fresh, notice-amber=conflict',
      '4.1 check then insert, one worker at a time: notice-amber=inserted, notice-birch=inserted, notice-amber=skipped',
      '4.2 snapshots: ids=snapshot-elm-01,snapshot-elm-02 claims=fresh,fresh balance=930',
      '4.3 rollback: fresh-worker-before inbox=0 effects=0; retry=applied; after inbox=1 effects=1',
      '4.4 effect identity: source-maple-a=fresh/new, source-maple-b=fresh/already-recorded; inbox=2 effects=1',
      '4.4 keyed by message: source-maple-a=fresh/new, source-maple-b=fresh/new; inbox=2 effects=2',
      '4.5 late replay of reconcile-17: per-worker claim B=applied balance=700; snapshot claim B=skipped balance=900; sequence guard B=skipped balance=900',
    ]);
  });

  it('-- quiz prints every option with its state and the option the database proves', async () => {
    const { stdout } = await run('quiz');
    expect(stdout).toContain('  c) inbox=2 effects=2 sum=800   <- proven right');
    expect(stdout).toContain('  d) inbox=2 balance=900   <- proven right');
    expect(stdout).toContain('the database proves b (reproduces inbox=3 effects=1 sum=400); the lesson declares b');
    expect(stdout.match(/<- proven right/g)).toHaveLength(5);
    expect(stdout).not.toContain('DISAGREE');
  });

  it('rejects an unknown command with its usage and status 2, without a stack trace', async () => {
    const failure = (await run('lecture').then(() => undefined, (error: unknown) => error)) as { code: number; stderr: string } | undefined;
    expect(failure?.code).toBe(2);
    expect(failure?.stderr.trim()).toBe('usage: npm run lesson -- examples | quiz');
  });
});
