import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { constantInitializer } from './scope.js';

/**
 * The text of a string built in source code (literals, template literals, `+` and constants),
 * with each part that is not known statically replaced by a hole, and a map from text offsets
 * back to source offsets so that a fix can edit the literal where it stands.
 */

export interface TextHole {
  /** The expression whose value fills the hole. */
  expression: TSESTree.Node;
  /** Offset of the hole in the text. */
  at: number;
  /** The hole sits between single quotes in the text ('${x}'), which it replaces. */
  quoted: boolean;
}

type Part =
  { kind: 'text'; value: string; sourceStart: number | undefined } | { kind: 'hole'; expression: TSESTree.Node };

interface Segment {
  textStart: number;
  length: number;
  sourceStart: number;
}

export interface StaticText {
  text: string;
  holes: TextHole[];
  /** The node the text comes from (a literal, a template, a concatenation). */
  node: TSESTree.Node;
  /** Where `offset` of the text stands in the source file, when it is part of a literal verbatim. */
  sourceOffset(offset: number): number | undefined;
}

const maxDepth = 8;
const maxLength = 200_000;
/** Deeper `+` chains than this are not read (they would exhaust the stack, and are not SQL). */
const maxNesting = 300;

interface Budget {
  length: number;
  nesting: number;
}

function textPart(value: string, raw: string, sourceStart: number): Part {
  // Escapes make the value differ from the source; such a part cannot be edited in place.
  return { kind: 'text', value, sourceStart: raw === value ? sourceStart : undefined };
}

function collect(parts: Part[], node: TSESTree.Node, scopeOf: ScopeOf, depth: number, budget: Budget): void {
  const hole = () => parts.push({ kind: 'hole', expression: node });
  if (budget.length > maxLength || budget.nesting > maxNesting) return void hole();
  budget.nesting += 1;
  try {
    collectNode(parts, node, scopeOf, depth, budget, hole);
  } finally {
    budget.nesting -= 1;
  }
}

function collectNode(
  parts: Part[],
  node: TSESTree.Node,
  scopeOf: ScopeOf,
  depth: number,
  budget: Budget,
  hole: () => void,
): void {
  switch (node.type) {
    case 'Literal':
      if (typeof node.value === 'string') {
        budget.length += node.value.length;
        parts.push(textPart(node.value, node.raw.slice(1, -1), node.range[0] + 1));
        return;
      }
      if (typeof node.value === 'number' || typeof node.value === 'boolean') {
        parts.push({ kind: 'text', value: String(node.value), sourceStart: undefined });
        return;
      }
      return void hole();
    case 'TemplateLiteral':
      node.quasis.forEach((quasi, index) => {
        const value = quasi.value.cooked ?? quasi.value.raw;
        budget.length += value.length;
        parts.push(textPart(value, quasi.value.raw, quasi.range[0] + 1));
        const expression = node.expressions[index];
        if (expression) collectPart(parts, expression, scopeOf, depth, budget);
      });
      return;
    case 'BinaryExpression':
      if (node.operator === '+') {
        collectPart(parts, node.left, scopeOf, depth, budget);
        collectPart(parts, node.right, scopeOf, depth, budget);
        return;
      }
      return void hole();
    case 'TSAsExpression':
    case 'TSNonNullExpression':
    case 'TSSatisfiesExpression':
      return collect(parts, node.expression, scopeOf, depth, budget);
    case 'Identifier': {
      const init = depth < maxDepth ? constantInitializer(node, scopeOf(node)) : undefined;
      if (init && isTextLike(init)) return collect(parts, init, scopeOf, depth + 1, budget);
      return void hole();
    }
    case 'MemberExpression': {
      const init = depth < maxDepth ? readonlyFieldInitializer(node) : undefined;
      if (init && isTextLike(init)) return collect(parts, init, scopeOf, depth + 1, budget);
      return void hole();
    }
    default:
      return void hole();
  }
}

function isTextLike(node: TSESTree.Node): boolean {
  return (
    (node.type === 'Literal' && typeof node.value === 'string') ||
    node.type === 'TemplateLiteral' ||
    (node.type === 'BinaryExpression' && node.operator === '+')
  );
}

/**
 * `this.prefix` of a class that declares `private readonly prefix = 'webhook:lock:'`: the value
 * the field is given where it is declared, which nothing can assign again.
 */
function readonlyFieldInitializer(node: TSESTree.MemberExpression): TSESTree.Expression | undefined {
  if (node.object.type !== 'ThisExpression' || node.computed || node.property.type !== 'Identifier') return undefined;
  const name = node.property.name;
  for (let current: TSESTree.Node | undefined = node.parent; current; current = current.parent) {
    if (current.type === 'FunctionExpression' && current.parent?.type !== 'MethodDefinition') return undefined;
    if (current.type === 'FunctionDeclaration') return undefined;
    if (current.type !== 'ClassBody') continue;
    const field = current.body.find(
      (member): member is TSESTree.PropertyDefinition =>
        member.type === 'PropertyDefinition' &&
        member.readonly &&
        !member.static &&
        !member.computed &&
        member.key.type === 'Identifier' &&
        member.key.name === name,
    );
    return field?.value ?? undefined;
  }
  return undefined;
}

/** An interpolated part: inlined when it is itself static text, a hole otherwise. */
function collectPart(parts: Part[], node: TSESTree.Node, scopeOf: ScopeOf, depth: number, budget: Budget): void {
  if (isTextLike(node) || node.type === 'Identifier' || node.type === 'MemberExpression')
    collect(parts, node, scopeOf, depth, budget);
  else parts.push({ kind: 'hole', expression: node });
}

export type ScopeOf = (node: TSESTree.Node) => TSESLint.Scope.Scope;

/**
 * The static text of `node`, or undefined when `node` is not built from string pieces at all.
 * `holeText` renders each hole in the returned text (e.g. as a SQL parameter).
 */
export function staticText(
  node: TSESTree.Node,
  scopeOf: ScopeOf,
  holeText: (index: number, hole: TextHole) => string,
  /** A tagged template's interpolations are values the tag binds, never text: each is a hole. */
  bound = false,
): StaticText | undefined {
  if (bound && node.type === 'TemplateLiteral') {
    const parts: Part[] = [];
    node.quasis.forEach((quasi, index) => {
      parts.push(textPart(quasi.value.cooked ?? quasi.value.raw, quasi.value.raw, quasi.range[0] + 1));
      const expression = node.expressions[index];
      if (expression) parts.push({ kind: 'hole', expression });
    });
    return render(parts, node, holeText);
  }
  let root = node;
  if (root.type === 'Identifier') {
    const init = constantInitializer(root, scopeOf(root));
    if (!init || !isTextLike(init)) return undefined;
    root = init;
  }
  if (!isTextLike(root)) return undefined;
  const parts: Part[] = [];
  collect(parts, root, scopeOf, 0, { length: 0, nesting: 0 });
  return render(parts, root, holeText);
}

/** A hole written between single quotes ('${x}') stands for the whole quoted value. */
function unquoteHoles(parts: Part[]): { parts: Part[]; quoted: Set<number> } {
  const quoted = new Set<number>();
  // Only the text parts around a quoted hole are copied, trimmed of their quotes.
  const result = parts.slice();
  for (let index = 1; index < result.length - 1; index += 1) {
    const before = result[index - 1];
    const after = result[index + 1];
    if (result[index].kind !== 'hole' || before.kind !== 'text' || after.kind !== 'text') continue;
    if (!before.value.endsWith("'") || !after.value.startsWith("'")) continue;
    result[index - 1] = { ...before, value: before.value.slice(0, -1) };
    const sourceStart = after.sourceStart === undefined ? undefined : after.sourceStart + 1;
    result[index + 1] = { kind: 'text', value: after.value.slice(1), sourceStart };
    quoted.add(index);
  }
  return { parts: result, quoted };
}

function render(input: Part[], node: TSESTree.Node, holeText: (index: number, hole: TextHole) => string): StaticText {
  const { parts, quoted } = unquoteHoles(input);
  let text = '';
  const holes: TextHole[] = [];
  const segments: Segment[] = [];
  parts.forEach((part, index) => {
    if (part.kind === 'text') {
      if (part.sourceStart !== undefined)
        segments.push({ textStart: text.length, length: part.value.length, sourceStart: part.sourceStart });
      text += part.value;
      return;
    }
    const hole: TextHole = { expression: part.expression, at: text.length, quoted: quoted.has(index) };
    holes.push(hole);
    text += holeText(holes.length - 1, hole);
  });
  return {
    text,
    holes,
    node,
    sourceOffset(offset) {
      for (const segment of segments) {
        if (offset >= segment.textStart && offset <= segment.textStart + segment.length) {
          return segment.sourceStart + (offset - segment.textStart);
        }
      }
      return undefined;
    },
  };
}
