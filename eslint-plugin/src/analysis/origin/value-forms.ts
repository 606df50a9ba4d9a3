import { leaf, type Fact, type Leaf } from './facts.js';
import type { TSESTree } from '@typescript-eslint/utils';

/**
 * How the language's own operations change what a value is: methods that keep a value in another
 * form, hashes, cuts of the clock down to a period, and the shapes of reading a header or walking a
 * list. No library is named here; the adapters' tables say what their calls make.
 */

/** Methods that return the same value in another form. */
export const sameValueMethods = new Set([
  'toString',
  'trim',
  'trimStart',
  'trimEnd',
  'toLowerCase',
  'toUpperCase',
  'toLocaleLowerCase',
  'toLocaleUpperCase',
  'padStart',
  'padEnd',
  'slice',
  'substring',
  'substr',
  'replace',
  'replaceAll',
  'normalize',
  'toFixed',
  'toPrecision',
  'toISOString',
  'toJSON',
  'valueOf',
  'getTime',
  'toUTCString',
  'toDateString',
  'toLocaleString',
  'concat',
  'update',
  'digest',
  'at',
  'join',
  'toHexString',
  'toBase58',
  'base64',
]);

/**
 * Methods that cut the current time down to a period: `toISOString().slice(0, 10)` is today's
 * date, the same for every retry today. A key built from it names a period, not an attempt.
 */
export const timeBuckets = new Set([
  'slice',
  'substring',
  'substr',
  'split',
  'getFullYear',
  'getMonth',
  'getDate',
  'getDay',
  'getHours',
  'getUTCFullYear',
  'getUTCMonth',
  'getUTCDate',
  'getUTCDay',
  'getUTCHours',
  'toDateString',
  'toLocaleDateString',
  'startOf',
  'format',
]);

/** Functions that turn a date into the period it falls in: `startOfDay(now)`, `format(now, 'yyyy-MM-dd')`. */
export const periodFunctions = /^(startOf|endOf)(Minute|Hour|Day|ISOWeek|Week|Month|Quarter|Year)$/;
export const formatFunctions = new Set(['format', 'formatDate']);
/** A format pattern that shows no seconds or finer (`yyyy-MM-dd`, `ddMMyyyy`, `yyyy-MM-dd HH:mm`). */
export const periodPattern = /^[^sSTxX]*$/;

/** Facts of a value the code holds rather than makes: anything but fresh values and constants (an unknown value read from a row counts). */
export function holdsValue(facts: readonly Fact[]): boolean {
  return facts.length > 0 && facts.some((fact) => fact.kind !== 'minted' && fact.kind !== 'constant');
}

/**
 * The facts of values of which one is taken (the branches of a conditional, a function's
 * returns): where some hold a value, a fresh value in another only stands in for it.
 */
export function alternatives(choices: readonly Fact[][]): Fact[] {
  const given = choices.some(holdsValue);
  return choices.flatMap((facts) =>
    given && !holdsValue(facts)
      ? facts.map((fact) => (fact.kind === 'minted' ? { ...fact, fallback: true as const } : fact))
      : facts,
  );
}

/**
 * Hashes: `createHash(…).update(now).digest('hex')`, `sha256(now)`. A hash of the current time is
 * as fresh as the time, but no longer a date: a slice of it (`.substring(0, 32)`) is no period.
 */
export const hashing = /hash|digest|^update$|sha\d*|md5|crc|fnv|murmur|xxh/i;

export function hashed(facts: Leaf[]): Leaf[] {
  return facts.map((fact) =>
    fact.kind === 'minted' && fact.what === 'the current time' ? { ...fact, what: 'a hash of the current time' } : fact,
  );
}

export function bucketed(facts: Leaf[], code: string): Leaf[] {
  return facts.map((fact) => (fact.kind === 'minted' && fact.what === 'the current time' ? leaf('time', code) : fact));
}

/** Does the member chain start at one of `names` (`process.env.HOSTNAME` at `process`)? */
export function startsAtGlobal(node: TSESTree.MemberExpression, names: ReadonlySet<string>): boolean {
  let object: TSESTree.Node = node.object;
  while (object.type === 'MemberExpression') object = object.object;
  return object.type === 'Identifier' && names.has(object.name);
}

/** Methods that read one header by name: `headers.get(name)`, `req.header(name)`. */
export const headerReaders = new Set(['get', 'header', 'getHeader']);

export const arrayCallbacks = new Set(['forEach', 'map', 'flatMap', 'filter', 'find', 'findLast', 'some', 'every']);

/** The last name in a piece of code: `refund` in `event.refund`, `items` in `items[]`. */
export function lastName(code: string): string | undefined {
  return /([A-Za-z_$][\w$]*)\s*(\[\])?$/.exec(code)?.[1];
}
