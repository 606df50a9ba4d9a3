/**
 * Edits like those a person makes while working on a consumer (typing a statement key by key,
 * renaming, deleting a line, pasting or removing a whole handler, commenting out) and random ones
 * (a stray character, a deleted range), from a seeded generator so every run sees the same ones.
 */

/** mulberry32: small, fast and good enough to pick edits. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Edit {
  /** What the edit did, for a failure message. */
  label: string;
  text: string;
}

/** Characters and words a stray keystroke or a half-typed line leaves behind. */
const fragments = [
  'x',
  'a',
  '1',
  ' ',
  '\n',
  '\r\n',
  ';',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  "'",
  '"',
  '`',
  '/',
  '*',
  '//',
  '/*',
  '*/',
  '+',
  '=',
  ',',
  '.',
  ':',
  '?',
  '@',
  '#',
  '<',
  '>',
  '!',
  '\\',
  'await ',
  'return ',
  'const ',
  'let ',
  'var ',
  'export ',
  'function ',
  'class ',
  'if (',
  'in ',
  'async ',
  "'use strict';\n",
  '\u2028',
  '${',
  'import ',
  'default ',
  'as ',
];

/** Names and expressions that make the rules' findings come and go. */
const replacements = [
  'orderId',
  'messageId',
  'message.id',
  'message.offset',
  'job.id',
  'cents',
  'amount',
  'result.cents',
  'randomUUID()',
  'crypto.randomUUID()',
  'x',
  'paymentId',
  'event.paymentId',
  'key',
  'receiptKey',
];

/** Statements typed one key at a time, as inside a handler. */
const typedStatements = [
  'const effectKey = message.offset;\n',
  "await client.query('INSERT INTO effects(effect_id) VALUES ($1)', [message.id]);\n",
  'if (seen.rowCount === 0) { await insertRow(order.id); }\n',
  'const key = `refund-${payment.amountCents}`;\n',
  '// a note about the claim\n',
  'export const settle = async (job) => stripe.refunds.create({ amount: 1 }, { idempotencyKey: job.id });\n',
];

const snippets = [
  `
export async function onRefund(message) {
  const refund = JSON.parse(String(message.value));
  await stripe.refunds.create({ payment_intent: refund.paymentId }, { idempotencyKey: message.id });
}
`,
  `
async function recordOnce(db, row) {
  const found = await db.query('SELECT 1 FROM rows WHERE row_id = $1', [row.id]);
  if (found.rowCount === 0) await db.query('INSERT INTO rows(row_id) VALUES ($1)', [row.id]);
}
`,
  '\nconst ledgerKey = `${entry.accountId}-${entry.cents}`;\n',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) starts.push(index + 1);
  return starts;
}

/** The edits of one step: most are one edit, typing a statement is one edit per key. */
export function nextEdits(text: string, original: string, random: () => number): Edit[] {
  const at = Math.floor(random() * (text.length + 1));
  const starts = lineStarts(text);
  const line = Math.floor(random() * starts.length);
  const lineStart = starts[line];
  const lineEnd = line + 1 < starts.length ? starts[line + 1] : text.length;
  const roll = random();

  if (roll < 0.14) {
    const inserted = pick(random, fragments);
    return [
      { label: `insert ${JSON.stringify(inserted)} at ${at}`, text: text.slice(0, at) + inserted + text.slice(at) },
    ];
  }
  if (roll < 0.24) {
    const length = 1 + Math.floor(random() * 8);
    return [{ label: `delete ${length} at ${at}`, text: text.slice(0, at) + text.slice(at + length) }];
  }
  if (roll < 0.32) return [{ label: `delete line ${line + 1}`, text: text.slice(0, lineStart) + text.slice(lineEnd) }];
  if (roll < 0.38) {
    const copied = text.slice(lineStart, lineEnd);
    const target = pick(random, starts);
    return [{ label: `copy line ${line + 1} to ${target}`, text: text.slice(0, target) + copied + text.slice(target) }];
  }
  if (roll < 0.56) {
    const names = [...text.matchAll(/[A-Za-z_$][\w$]*/g)];
    if (names.length === 0) return [];
    const name = pick(random, names);
    const replacement = pick(random, replacements);
    const start = name.index;
    return [
      {
        label: `rename ${name[0]} at ${start} to ${replacement}`,
        text: text.slice(0, start) + replacement + text.slice(start + name[0].length),
      },
    ];
  }
  if (roll < 0.7) {
    // Type at the start of a line, indented like it, one key at a time.
    const indent = /^[ \t]*/.exec(text.slice(lineStart, lineEnd))![0];
    const statement = indent + pick(random, typedStatements);
    const edits: Edit[] = [];
    for (let typed = 1; typed <= statement.length; typed += 1) {
      edits.push({
        label: `type ${JSON.stringify(statement.slice(0, typed))} at line ${line + 1}`,
        text: text.slice(0, lineStart) + statement.slice(0, typed) + text.slice(lineStart),
      });
    }
    return edits;
  }
  if (roll < 0.78) {
    const snippet = pick(random, snippets);
    return [
      {
        label: `paste a snippet at line ${line + 1}`,
        text: text.slice(0, lineStart) + snippet + text.slice(lineStart),
      },
    ];
  }
  if (roll < 0.84) {
    const lines = 2 + Math.floor(random() * 30);
    const end = starts[Math.min(starts.length - 1, line + lines)];
    return [{ label: `delete lines ${line + 1} to ${line + lines}`, text: text.slice(0, lineStart) + text.slice(end) }];
  }
  if (roll < 0.92) {
    const commented = text.slice(lineStart, lineStart + 3) === '// ';
    return [
      {
        label: `${commented ? 'uncomment' : 'comment out'} line ${line + 1}`,
        text: commented
          ? text.slice(0, lineStart) + text.slice(lineStart + 3)
          : `${text.slice(0, lineStart)}// ${text.slice(lineStart)}`,
      },
    ];
  }
  if (roll < 0.96) return [{ label: 'undo everything', text: original }];
  // Join two lines: a statement may run into the next one.
  const newline = text.indexOf('\n', at);
  if (newline === -1) return [];
  return [
    { label: `join the line at ${newline} with the next`, text: text.slice(0, newline) + text.slice(newline + 1) },
  ];
}
