import { changedSpan } from './changed-span.js';
import {
  firstStartingAt,
  type EstreeNode,
  type EstreeProgram,
  type EstreeToken,
  type Located,
  type VisitorKeys,
} from './estree.js';
import { LineStarts } from './line-starts.js';
import { PositionMover } from './position-mover.js';
import { declarationSignature } from './top-level-declarations.js';

export interface PreviousParse {
  text: string;
  program: EstreeProgram;
}

export interface SpliceOptions {
  visitorKeys: VisitorKeys;
  /** Parses a whole text with the parser and options of the full parse; throws on a syntax error. */
  parseFragment: (text: string) => EstreeProgram;
  /** The parser rejects files whose statements' declarations clash (acorn does; TypeScript's parser leaves that to its checker). */
  declarationsClash: boolean;
  /** Above this share of the file a re-read saves too little to be worth it. */
  maxShare: number;
}

export type SpliceResult = { program: EstreeProgram } | { fallback: string };

const semicolon = 59;

/**
 * Re-reads only the top-level statements a change touched and splices them into the previous
 * program, so that the result equals what parsing the whole new text would give.
 *
 * The re-read region runs from the last statement that starts before the change to the first
 * statement that starts after it (the anchor), both included. It is parsed on its own with the
 * same parser and options, after the directive prologue (so strictness is the same) and indented
 * to its column, and its positions are then moved to where it sits in the file. Parsing the
 * anchor too shows where the changed statements end (a statement can absorb the next one, or stop
 * earlier); the statement before the region is unchanged and the region's first token either is
 * unchanged or follows a `;`, so where the region starts cannot move either. Everything after the
 * anchor keeps its parse and moves by the change in length and lines. Whatever does not fit that
 * picture is left to a full parse, with the reason.
 */
export function spliceProgram(previous: PreviousParse, text: string, options: SpliceOptions): SpliceResult {
  const old = previous.program;
  const body = old.body;
  const span = changedSpan(previous.text, text);
  const delta = text.length - previous.text.length;

  let first = -1;
  while (first + 1 < body.length && body[first + 1].range[0] < span.start) first += 1;
  let anchor = Math.max(first, 0);
  while (anchor < body.length && body[anchor].range[0] < span.oldEnd) anchor += 1;
  const hasAnchor = anchor < body.length;
  const kept = Math.max(first, 0);

  const regionStart = first >= 0 ? body[first].range[0] : 0;
  const regionEnd = hasAnchor ? body[anchor].range[1] : previous.text.length;
  if (regionEnd + delta - regionStart > options.maxShare * text.length)
    return { fallback: 'the change spans much of the file' };

  const prologue = directivePrologue(body);
  if (prologue.length > 0 && first < prologue.length) return { fallback: 'the change touches the directive prologue' };
  const oldRegion = body.slice(kept, hasAnchor ? anchor + 1 : body.length);
  if (oldRegion.some(isDirective)) return { fallback: 'a directive in the changed statements' };

  // A token between two statements (a decorator the statement's range leaves out, say) would be lost.
  const oldFirstToken = firstStartingAt(old.tokens, regionStart);
  const previousEnd = first > 0 ? body[first - 1].range[1] : 0;
  if (first >= 0 && oldFirstToken > 0 && old.tokens[oldFirstToken - 1].range[1] > previousEnd) {
    return { fallback: 'a token outside the statements before the change' };
  }

  const lines = new LineStarts(text);
  const parsed = parseRegion(
    text,
    regionStart,
    regionEnd + delta,
    first >= 0 ? body[first].loc.start.column : 0,
    prologue,
    lines,
    options,
  );
  if ('fallback' in parsed) return parsed;
  const { fresh, freshTokens, freshComments, end: freshEnd, start: freshStart } = parsed;

  if (fresh.length === 0 || (first >= 0 && fresh[0].range[0] !== regionStart))
    return { fallback: 'the first changed statement moved' };
  if (fresh.some(isDirective)) return { fallback: 'a directive in the changed statements' };
  const lastFresh = fresh[fresh.length - 1];
  if (
    freshTokens.length === 0 ||
    freshTokens[0].range[0] < fresh[0].range[0] ||
    freshTokens[freshTokens.length - 1].range[1] > lastFresh.range[1]
  ) {
    return { fallback: 'a token outside the changed statements' };
  }

  const before = body[first - 1];
  if (
    before &&
    previous.text.charCodeAt(before.range[1] - 1) !== semicolon &&
    !sameToken(old.tokens[oldFirstToken], freshTokens[0])
  ) {
    // Without a `;` in between, whether the previous statement ends where it did depends on this token.
    return { fallback: 'the first token of a statement changed after a statement without a semicolon' };
  }

  if (hasAnchor) {
    const oldAnchor = body[anchor];
    if (
      lastFresh.type !== oldAnchor.type ||
      lastFresh.range[0] !== oldAnchor.range[0] + delta ||
      lastFresh.range[1] !== oldAnchor.range[1] + delta
    ) {
      return { fallback: 'the statement after the change parses differently' };
    }
  }

  if (options.declarationsClash && declarationSignature(oldRegion) !== declarationSignature(fresh)) {
    return { fallback: 'the changed statements declare or export other names' };
  }

  // Everything is checked: from here on the previous program's later nodes are moved in place.
  const statements = body.slice(0, kept);
  for (const statement of fresh) statements.push(statement);
  const tokens = old.tokens.slice(0, oldFirstToken);
  for (const token of freshTokens) tokens.push(token);
  const comments = old.comments.slice(0, firstStartingAt(old.comments, regionStart));
  for (const comment of freshComments) comments.push(comment);
  let end = freshEnd;
  if (hasAnchor) {
    // Text after the anchor is unchanged: its parse holds, `delta` characters later.
    const mover = new PositionMover(delta, lines);
    for (let index = anchor + 1; index < body.length; index += 1) {
      mover.tree(body[index], options.visitorKeys);
      statements.push(body[index]);
    }
    for (let index = firstStartingAt(old.tokens, regionEnd); index < old.tokens.length; index += 1) {
      mover.located(old.tokens[index]);
      tokens.push(old.tokens[index]);
    }
    for (let index = firstStartingAt(old.comments, regionEnd); index < old.comments.length; index += 1) {
      mover.located(old.comments[index]);
      comments.push(old.comments[index]);
    }
    end = { range: [old.range[1], old.range[1]], loc: { start: old.loc.end, end: old.loc.end } };
    mover.located(end);
  }

  // Where the program starts can only change when the region starts the file.
  const start = first >= 0 ? { range: old.range, loc: old.loc } : freshStart;
  const program: EstreeProgram = {
    ...old,
    body: statements,
    tokens,
    comments,
    range: [start.range[0], end.range[1]],
    loc: { start: start.loc.start, end: end.loc.end },
  };
  if (typeof old.start === 'number') program.start = program.range[0];
  if (typeof old.end === 'number') program.end = program.range[1];
  return { program };
}

interface ParsedRegion {
  fresh: EstreeNode[];
  freshTokens: EstreeToken[];
  freshComments: EstreeToken[];
  /** Where the fragment's program starts and ends, in the file's positions. */
  start: Located;
  end: Located;
}

/**
 * Parses `text[from, to)`, which starts at `column` of its line, as the parser would see it in the
 * file: after the directive prologue, on its own line, indented to that column. Returns its
 * statements, tokens and comments moved to their places in the file.
 */
function parseRegion(
  text: string,
  from: number,
  to: number,
  column: number,
  prologue: readonly EstreeNode[],
  lines: LineStarts,
  options: SpliceOptions,
): ParsedRegion | { fallback: string } {
  const prologueEnd = prologue.length > 0 ? prologue[prologue.length - 1] : undefined;
  const head = prologueEnd ? `${text.slice(0, prologueEnd.range[1])}\n` : '';
  const indent = ' '.repeat(column);
  let fragment: EstreeProgram;
  try {
    fragment = options.parseFragment(head + indent + text.slice(from, to));
  } catch (error) {
    return {
      fallback: `the changed statements do not parse alone: ${error instanceof Error ? error.message : String(error)}`,
    };
  }

  const regionAt = head.length + indent.length;
  const fresh = fragment.body.slice(prologue.length);
  const freshTokens = fragment.tokens.slice(firstStartingAt(fragment.tokens, regionAt));
  const freshComments = fragment.comments.slice(firstStartingAt(fragment.comments, regionAt));
  const start: Located = { range: fragment.range, loc: fragment.loc };
  const end: Located = {
    range: [fragment.range[1], fragment.range[1]],
    loc: { start: fragment.loc.end, end: fragment.loc.end },
  };
  // The region's text is the file's from `from` on, so its parse holds there, offsets moved.
  const mover = new PositionMover(from - regionAt, lines);
  for (const statement of fresh) mover.tree(statement, options.visitorKeys);
  for (const token of freshTokens) mover.located(token);
  for (const comment of freshComments) mover.located(comment);
  mover.located(start);
  mover.located(end);
  return { fresh, freshTokens, freshComments, start, end };
}

/** The statements of the directive prologue (`'use strict'` and the like) at the start of a program. */
function directivePrologue(body: readonly EstreeNode[]): EstreeNode[] {
  let count = 0;
  while (count < body.length && isDirective(body[count])) count += 1;
  return body.slice(0, count);
}

function isDirective(statement: EstreeNode): boolean {
  return typeof statement.directive === 'string';
}

function sameToken(a: EstreeToken | undefined, b: EstreeToken | undefined): boolean {
  return (
    !!a && !!b && a.type === b.type && a.value === b.value && a.range[0] === b.range[0] && a.range[1] === b.range[1]
  );
}
