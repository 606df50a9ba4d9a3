import type { TSESTree } from '@typescript-eslint/utils';

import type { AdapterFile, DdlCall, ModelFiles } from '../contract/adapter.js';
import type { DeclaredTable } from '../contract/schema.js';
import { isTestCode } from '../project/importers.js';
import { calleeName, callTaking, memberPath, unwrapExpression } from '../syntax/nodes.js';
import { variableOf } from '../syntax/scope.js';
import { staticText } from '../syntax/static-text.js';
import { walk } from '../syntax/walk.js';
import { tablesMentioned, uniqueKeysInSql } from '../sql/ddl.js';

/**
 * Unique keys of DDL that migration code sends as text (`queryRunner.query('CREATE UNIQUE INDEX
 * …')`), or that a module runs as a `CREATE TABLE` text through a call of its own, read as a SQL
 * migration's. What cannot be read stays unknown, never keyless: a text
 * with a part built at run time leaves the tables it names unsure, and so do the tables named in
 * the same file by the migration tool's own calls (`createIndex('refunds', …)`), which may add
 * keys this reading does not see. Tests' DDL is not read.
 */

/** DDL that may declare a key: a cheap look at a module's text before it is parsed. */
const mentionsDdl = /\b(create|alter)\s+(unique\s+)?(table|index)\b/i;

/** Method names by which migration tools change a table themselves. */
const changesTable = /^(create|alter|add|drop|rename|change)[A-Z_]|^(on|table|alterTable|createTable)$/;

function sendsDdl(node: TSESTree.Node, calls: readonly DdlCall[]): TSESTree.Node | undefined {
  if (node.type === 'TaggedTemplateExpression') {
    const tag = memberPath(node.tag)?.at(-1);
    return calls.some((call) => 'tag' in call && call.tag === tag) ? node.quasi : undefined;
  }
  if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return undefined;
  const method = calleeName(node.callee);
  const receiver = memberPath(node.callee.object)?.at(-1);
  if (!method || receiver === undefined) return undefined;
  const call = calls.find(
    (candidate) => 'method' in candidate && candidate.method === method && candidate.receiver.test(receiver),
  );
  return call && 'method' in call ? node.arguments[call.argument ?? 0] : undefined;
}

/** The tables one text declares: read whole when every part is written out, else only named, as unsure. */
function tablesOfText(node: TSESTree.Node, file: AdapterFile, bound: boolean): DeclaredTable[] {
  const text = staticText(unwrapExpression(node), file.scopeOf, () => ' ', bound);
  if (!text || !mentionsDdl.test(text.text)) return [];
  if (text.holes.length > 0) return tablesMentioned(text.text);
  return uniqueKeysInSql(text.text) ?? tablesMentioned(text.text);
}

/**
 * A `CREATE TABLE …` text this module runs, whichever call sends it: handed to a call, returned by
 * a function for its caller to run (`$executeQuery(this.ordersTable())`), or bound to a constant
 * the module hands to a call. A text only exported or kept in a list may be an example or one of
 * several versions of a table, not the schema.
 */
function runsTableText(node: TSESTree.Node, file: AdapterFile): boolean {
  const start =
    node.type === 'Literal' ? node.value : node.type === 'TemplateLiteral' ? node.quasis[0]?.value.cooked : undefined;
  if (typeof start !== 'string' || !/^\s*create\s+(?:table|unique\s+index)\b/i.test(start)) return false;
  let use: TSESTree.Node = node;
  if (use.parent?.type === 'TaggedTemplateExpression') use = use.parent;
  const parent = use.parent;
  if (parent?.type === 'ReturnStatement' || (parent?.type === 'ArrowFunctionExpression' && parent.body === use))
    return true;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') {
    const variable = variableOf(parent.id, file.scopeOf(parent.id));
    return variable?.references.some((reference) => callTaking(reference.identifier) !== undefined) === true;
  }
  return callTaking(use) !== undefined;
}

/** Every string written in a call's arguments: the tables it may name. */
function stringsIn(node: TSESTree.Node, file: AdapterFile): string[] {
  const found: string[] = [];
  walk(node, file.visitorKeys, (inner) => {
    if (inner.type === 'Literal' && typeof inner.value === 'string') found.push(inner.value);
  });
  return found;
}

export function ddlInCode(calls: readonly DdlCall[]): ModelFiles {
  return {
    mentions: mentionsDdl,
    read(file) {
      // The tables tests create are throwaway copies, often without the keys the real schema has.
      if (isTestCode(file.filename)) return [];
      const tables: DeclaredTable[] = [];
      const others: TSESTree.CallExpression[] = [];
      walk(file.sourceAst, file.visitorKeys, (node) => {
        const text = sendsDdl(node, calls);
        if (text) tables.push(...tablesOfText(text, file, node.type === 'TaggedTemplateExpression'));
        else if (runsTableText(node, file))
          tables.push(...tablesOfText(node, file, node.parent?.type === 'TaggedTemplateExpression'));
        else if (node.type === 'CallExpression' && changesTable.test(calleeName(node.callee) ?? '')) others.push(node);
        return !text;
      });
      if (tables.length === 0) return [];
      const named = others.flatMap((call) => call.arguments.flatMap((argument) => stringsIn(argument, file)));
      return [...tables, ...named.map((table) => ({ table, keys: [], unsure: true, addition: true }))];
    },
  };
}
