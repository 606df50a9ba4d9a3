import { describe, expect, it } from 'vitest';

import { duplicateCatches } from '../../../eslint-plugin/src/analysis/control/caught.js';
import { guardsFedBy, isDecidedBy, writeSites } from '../../../eslint-plugin/src/analysis/control/decisions.js';
import { flip, isNothing, isZero } from '../../../eslint-plugin/src/analysis/control/polarity.js';
import { resultIgnored } from '../../../eslint-plugin/src/analysis/syntax/nodes.js';
import { inFile } from '../support/file.js';

/** The building blocks of control/: which reads decide which writes, and which duplicates are caught. */

const decides = (body: string) =>
  inFile(`export async function handle() {\n${body}\n}`, (file, call) =>
    isDecidedBy(guardsFedBy(call('read'), file), writeSites(call('write'), file)),
  );

describe('a read deciding a write', () => {
  it.each([
    ['nothing found, then written', 'const found = await read(); if (!found) await write();', true],
    ['found: leave early, else write', 'const found = await read(); if (found) return; await write();', true],
    ['`||` runs the write when nothing was found', 'const found = await read(); found || (await write());', true],
    ['no rows by length', 'const rows = await read(); if (rows.length === 0) await write();', true],
    ['compared with null', 'const row = await read(); if (row === null) { await write(); }', true],
    ['a ternary picks the write', 'const row = await read(); row ? null : await write();', true],
    ['find then update: the write needs the row', 'const row = await read(); if (row) await write(row);', false],
    ['a quota compared with a limit', 'const count = await read(); if (count >= 10) return; await write();', false],
    [
      'the state of a found row, not whether it exists',
      'const row = await read(); if (row.status !== "done") await write();',
      false,
    ],
    ['the write before the read', 'await write(); const row = await read(); if (!row) return;', false],
    [
      'a snapshot that is not empty: leave early',
      'const found = await read(); if (!found.empty) return; await write();',
      true,
    ],
    ['a snapshot that is empty: write', 'const found = await read(); if (found.empty) await write();', true],
    [
      'an empty snapshot: the write needs a row',
      'const found = await read(); if (found.empty) return; await write();',
      false,
    ],
    [
      'a document that exists() is left alone',
      'const snap = await read(); if (snap.exists()) return; await write();',
      true,
    ],
    [
      'exists() with an argument asks something else',
      'const snap = await read(); if (snap.exists(1)) return; await write();',
      false,
    ],
    ['no documents by length', 'const snap = await read(); if (snap.docs.length === 0) await write();', true],
    [
      'a verdict handed on by then() and catch()',
      'const seen = await read().then((row) => !!row).catch(() => false); if (seen) return; await write();',
      true,
    ],
    [
      'a verdict turned around by then()',
      'const fresh = await read().then((row) => row === null); if (fresh) await write();',
      true,
    ],
    [
      'then() that reads a field of the row asks about its state',
      'const done = await read().then((row) => row.status === "done"); if (done) return; await write();',
      false,
    ],
    [
      'then() that hands the row to a function of its own answers with that',
      'const ok = await read().then((row) => judge(row)); if (ok) return; await write();',
      false,
    ],
    [
      'a return nested in blocks: the rest of the function runs only when it does not',
      'if (fresh) { for (const id of ids) { if (await read(id)) return; } } await write();',
      true,
    ],
    [
      'a `continue` nested in a loop leaves the iteration, not the function',
      'for (const id of ids) { if (await read(id)) continue; } await write();',
      false,
    ],
    [
      'a throw a `try` catches: the code after the `try` runs either way',
      'try { if (await read()) throw new Error("locked"); } catch (error) { log(error); } await write();',
      false,
    ],
    [
      'the same throw, with the write inside the `try`: decided',
      'try { if (await read()) throw new Error("locked"); else await mark(); await write(); } catch (error) { log(error); }',
      true,
    ],
  ])('%s', (_name, body, expected) => {
    expect(decides(body)).toBe(expected);
  });
});

const caught = (body: string) =>
  inFile(
    `export async function handle() {\n${body}\n}`,
    (file, call) => duplicateCatches(call('write'), file).length > 0,
  );

describe('a unique violation caught as the duplicate', () => {
  it.each([
    [
      "PostgreSQL's code in the catch",
      "try { await write(); } catch (error) { if (error.code === '23505') return; throw error; }",
      true,
    ],
    [
      'a word for the duplicate',
      'try { await write(); } catch (error) { if (isDuplicateError(error)) return; throw error; }',
      true,
    ],
    [
      'a .catch() that says so',
      "await write().catch((error) => { if (error.code === 'P2002') return; throw error; });",
      true,
    ],
    [
      'a helper of the file that checks the code',
      "try { await write(); } catch (error) { if (isMine(error)) return; throw error; }\n}\nfunction isMine(error) { return error.code === '23505';",
      true,
    ],
    ['a catch that only logs', 'try { await write(); } catch (error) { console.error(error); }', false],
    ['no catch at all', 'await write();', false],
  ])('%s', (_name, body, expected) => {
    expect(caught(body)).toBe(expected);
  });

  it('follows a helper to the callers that catch for it, and returns what they guard', () => {
    const code = `async function insertClaim() { await write(); }
export async function a() { try { await insertClaim(); } catch (error) { if (error.code === '23505') return; } }
export async function b() { try { await insertClaim(); } catch (error) { if (error.code === '23505') return; } }`;
    expect(inFile(code, (file, call) => duplicateCatches(call('write'), file).map((node) => node.type))).toEqual([
      'BlockStatement',
      'BlockStatement',
    ]);
    const oneUncaught = `${code}\nexport async function c() { await insertClaim(); }`;
    expect(inFile(oneUncaught, (file, call) => duplicateCatches(call('write'), file))).toEqual([]);
  });
});

describe('polarity', () => {
  const literal = (text: string) => inFile(`probe(${text});`, (_file, call) => call('probe').arguments[0]);
  it.each([
    ['null', true, false],
    ['undefined', true, false],
    ['false', true, false],
    ['0', false, true],
    ["'0'", false, true],
    ["''", false, false],
    ['1', false, false],
  ])('%s: nothing %s, zero %s', (text, nothing, zero) => {
    expect(isNothing(literal(text))).toBe(nothing);
    expect(isZero(literal(text))).toBe(zero);
  });

  it('flips present and absent, and leaves either alone', () => {
    expect([flip('present'), flip('absent'), flip('either')]).toEqual(['absent', 'present', 'either']);
  });

  it.each([
    ['await write();', true],
    ['write();', true],
    ['const inserted = await write();', false],
    ['if (!(await write())) return;', false],
    ['await write().catch(() => null);', true],
    ['await write().finally(done);', true],
    ['await write().then((result) => result.rowCount);', false],
  ])('result of `%s` ignored: %s', (body, expected) => {
    expect(inFile(`export async function handle() { ${body} }`, (_file, call) => resultIgnored(call('write')))).toBe(
      expected,
    );
  });
});
