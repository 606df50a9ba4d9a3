import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { seededRandom } from '../support/random-edits.js';

/**
 * A consumer file of a given length for the benchmark: Kafka and BullMQ handlers that write
 * effects with SQL, some keyed safely and some not, so the rules have real work on every line.
 */
const handler = (index: number) => `
export async function handleResult${index}(message: { id: string; key: string; value: Buffer; offset: string }) {
  const result = JSON.parse(String(message.value)) as { resultId: string; cents: number; courseId: string };
  const inboxId = message.id;
  const effectId = message.id;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const claim = await client.query(
      'INSERT INTO inbox(message_id) VALUES ($1) ON CONFLICT DO NOTHING RETURNING message_id',
      [inboxId],
    );
    if (claim.rowCount === 1) {
      await client.query('INSERT INTO effects(effect_id, amount) VALUES ($1, $2)', [effectId, result.cents]);
      await client.query(\`INSERT INTO ledger(entry_id, course_id, amount) VALUES ($1, $2, $3)
        ON CONFLICT (entry_id) DO NOTHING\`, [ledgerKey(result.cents), result.courseId, result.cents]);
    }
    const seen = await client.query('SELECT 1 FROM snapshots WHERE snapshot_id = $1', [result.resultId]);
    if (seen.rowCount === 0) {
      await client.query('INSERT INTO snapshots(snapshot_id, cents) VALUES ($1, $2)', [result.resultId, result.cents]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}
`;

const header = `import { Kafka } from 'kafkajs';
import { Pool } from 'pg';

import { ledgerKey } from './keys.js';

const pool = new Pool();
const kafka = new Kafka({ clientId: 'bench', brokers: ['127.0.0.1:9092'] });
export const consumer = kafka.consumer({ groupId: 'bench' });
`;

/** Whole handlers only (a cut one would not parse), so the file is `lines` long or a little longer. */
export function consumerFile(lines: number): string {
  let text = header;
  for (let index = 0; text.split('\n').length < lines; index += 1) text += handler(index);
  return `${text}// end\n`;
}

/**
 * The consumer in a project of its own, as the editor opens it: the key helper it imports from
 * another module, and the SQL migration that declares its tables' unique keys (the snapshot check
 * is settled by its primary key; the effects table has none). Returns the consumer's path.
 */
export function consumerProject(lines: number): { file: string; text: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), 'idempotency-bench-'));
  // Each bench process makes its own; none outlives it.
  process.on('exit', () => rmSync(root, { recursive: true, force: true }));
  mkdirSync(path.join(root, 'src'));
  mkdirSync(path.join(root, 'migrations'));
  writeFileSync(path.join(root, 'package.json'), '{ "name": "bench-consumers", "private": true }\n');
  writeFileSync(
    path.join(root, 'src/keys.ts'),
    "export function ledgerKey(cents: number): string {\n  return 'amount-' + cents;\n}\n",
  );
  writeFileSync(
    path.join(root, 'migrations/001_init.sql'),
    [
      'CREATE TABLE inbox (message_id text PRIMARY KEY);',
      'CREATE TABLE effects (effect_id text, amount integer);',
      'CREATE TABLE ledger (entry_id text PRIMARY KEY, course_id text, amount integer);',
      'CREATE TABLE snapshots (snapshot_id text PRIMARY KEY, cents integer);',
      '',
    ].join('\n'),
  );
  const text = consumerFile(lines);
  const file = path.join(root, 'src/consumer.ts');
  writeFileSync(file, text);
  return { file, text };
}

export interface CorpusEdit {
  label: string;
  text: string;
}

/** Lines added inside handlers; numbered, so no name is declared twice (a syntax error in JavaScript). */
const addedLines = [
  (n: number) => `    const effectKey${n} = message.offset;\n`,
  (n: number) => `    const note${n} = result.courseId;\n`,
  () => "    console.log('claimed', inboxId);\n",
];
const addedLine = /^ {4}(?:const (?:effectKey|note)\d+ = [^\n]*|console\.log\('claimed', inboxId\);)\n/m;

/**
 * Edits someone makes while working in the file, spread over its handlers: add a line inside
 * a handler, rename a key variable, remove a line added before, change a key's expression, edit
 * the comment at the end. Every text parses, as TypeScript and as JavaScript, so each edit ends
 * in fresh diagnostics.
 */
export function editingSession(text: string, count: number, seed = 4): CorpusEdit[] {
  const random = seededRandom(seed);
  const edits: CorpusEdit[] = [];
  let current = text;
  const push = (label: string, next: string) => {
    if (next === current) return;
    edits.push({ label, text: next });
    current = next;
  };
  while (edits.length < count) {
    const handlers = [...current.matchAll(/\n {4}await client\.query\('BEGIN'\);\n/g)];
    const handler = handlers[Math.floor(random() * handlers.length)];
    const at = handler.index + handler[0].length;
    const roll = random();
    if (roll < 0.35) {
      const line = addedLines[Math.floor(random() * addedLines.length)](edits.length);
      push(`add a line at ${at}`, current.slice(0, at) + line + current.slice(at));
    } else if (roll < 0.55) {
      const added = addedLine.exec(current.slice(at, at + 300));
      if (added)
        push(
          `remove the line at ${at + added.index}`,
          current.slice(0, at + added.index) + current.slice(at + added.index + added[0].length),
        );
    } else if (roll < 0.8) {
      const name = /\b(effectId|inboxId|effectKey)\b/.exec(current.slice(at - 200, at + 400));
      if (name) {
        const start = at - 200 + name.index;
        const renamed = name[1] === 'effectId' ? 'effectKey' : name[1] === 'effectKey' ? 'effectId' : 'claimId';
        push(
          `rename ${name[1]} at ${start}`,
          current.slice(0, start) + renamed + current.slice(start + name[1].length),
        );
      }
    } else if (roll < 0.95) {
      const key = current.indexOf('[effectId, result.cents]', at);
      const start = key !== -1 && key < at + 600 ? key : current.indexOf('[result.resultId, result.cents]', at);
      if (start !== -1) {
        const old = current.startsWith('[effectId', start)
          ? '[effectId, result.cents]'
          : '[result.resultId, result.cents]';
        const replacement =
          old === '[effectId, result.cents]' ? '[result.resultId, result.cents]' : '[effectId, result.cents]';
        push(`change a key at ${start}`, current.slice(0, start) + replacement + current.slice(start + old.length));
      }
    } else {
      const end = current.lastIndexOf('// end');
      push('edit the last comment', `${current.slice(0, end)}// end ${edits.length}\n`);
    }
  }
  return edits;
}
