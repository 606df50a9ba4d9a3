import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { describe, expect, it } from 'vitest';

import { expectedFindings, type ExpectedFinding } from '../support/example-markers.js';

/**
 * The real `eslint` command, as a CI pipeline runs it, over the example consumers. What must be
 * found is written in the examples themselves: a line ending in `// flagged: <rule>`.
 */

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
const examples = path.join(root, 'eslint-plugin/examples');
const eslintBin = path.join(root, 'node_modules/eslint/bin/eslint.js');

const key = (finding: ExpectedFinding) => `${finding.file}:${finding.line} idempotency/${finding.rule}`;

function expectedKeys(): string[] {
  return expectedFindings(examples).map(key).sort();
}

async function lint(config: string, ...extra: string[]): Promise<{ code: number; stdout: string }> {
  try {
    const { stdout } = await run(process.execPath, [eslintBin, '--config', config, ...extra, examples], {
      cwd: root,
      maxBuffer: 32 * 1024 * 1024,
    });
    return { code: 0, stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    if (failure.code !== 1) throw new Error(`eslint failed (${failure.code}): ${failure.stderr}`, { cause: error });
    return { code: 1, stdout: failure.stdout };
  }
}

function foundFindings(json: string): string[] {
  const results = JSON.parse(json) as {
    filePath: string;
    messages: { line: number; ruleId: string | null; fatal?: boolean }[];
  }[];
  for (const result of results) {
    const fatal = result.messages.find((message) => message.fatal);
    if (fatal) throw new Error(`${result.filePath} did not parse: ${JSON.stringify(fatal)}`);
  }
  return results
    .flatMap((result) =>
      result.messages.map((message) => `${path.basename(result.filePath)}:${message.line} ${message.ruleId ?? ''}`),
    )
    .sort();
}

describe('the eslint command line', () => {
  it('has a built plugin to load', () => {
    expect(existsSync(path.join(root, 'eslint-plugin/dist/index.js'))).toBe(true);
  });

  it('finds exactly the marked lines with an ES module config', async () => {
    const expected = expectedKeys();
    expect(expected.length).toBeGreaterThanOrEqual(6);
    const { code, stdout } = await lint(path.join(examples, 'eslint.config.mjs'), '--format', 'json');
    expect(code).toBe(1);
    expect(foundFindings(stdout)).toEqual(expected);
  });

  it('finds the same with a CommonJS config', async () => {
    const { stdout } = await lint(path.join(root, 'test/eslint-plugin/fixtures/eslint.config.cjs'), '--format', 'json');
    expect(foundFindings(stdout)).toEqual(expectedKeys());
  });

  it('prints each finding with the lesson that teaches it through the bundled formatter', async () => {
    const { stdout } = await lint(
      path.join(examples, 'eslint.config.mjs'),
      '--format',
      path.join(root, 'eslint-plugin/dist/formatter.js'),
    );
    expect(stdout).toContain('Learn why: lesson idempotent-consumers#q1');
    expect(stdout).toContain('Learn why: lesson idempotent-consumers#q4');
    expect(stdout).toContain('Learn why: lesson idempotent-consumers#example-4-1');
    expect(stdout).toMatch(new RegExp(`${expectedKeys().length} findings in \\d+ files`));
  });

  it('stays quiet on a consumer written the safe way', async () => {
    const { code } = await run(
      process.execPath,
      [eslintBin, '--config', path.join(examples, 'eslint.config.mjs'), path.join(examples, 'inbox-done-right.ts')],
      { cwd: root },
    ).then(
      () => ({ code: 0 }),
      (error: { code: number }) => ({ code: error.code }),
    );
    expect(code).toBe(0);
  });
});
