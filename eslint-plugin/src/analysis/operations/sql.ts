import type { TSESTree } from '@typescript-eslint/utils';

import { calleeName } from '../syntax/nodes.js';
import type { ScopeOf } from '../syntax/static-text.js';
import { embeddedSql, sqlInterest, type EmbeddedSql, type SqlCalls } from '../sql/embedded.js';
import type { LibraryName } from '../contract/adapter.js';
import type { InsertedColumn, SqlChange, SqlRead } from '../sql/statements.js';
import { normaliseTarget, type DataOperation, type Field } from '../contract/operation.js';

const rowLocking = /\bfor\s+(no\s+key\s+)?(update|share|key\s+share)\b/i;

/** The columns a WHERE compares: the SQL's own summary is shared by every site of the same text, so it names no values. */
function columnsMatched(columns: readonly string[] | undefined): Field[] | undefined {
  return columns?.map((name) => ({ name, values: [], functions: [] }));
}

/** The columns an INSERT fills or an UPDATE sets, with the code's values for their parameters. */
function columnFields(sql: EmbeddedSql, columns: readonly InsertedColumn[] | undefined): Field[] {
  return (columns ?? []).map((column) => ({
    name: column.name,
    values: column.params.map((number) => sql.param(number)).filter((value) => value !== undefined),
    functions: column.functions,
    ...(column.constant !== undefined ? { constant: column.constant } : {}),
  }));
}

/**
 * A SELECT matters only if the same file inserts into a table it reads, so it is parsed only when
 * asked about its tables, and only after a cheap look at whether it could mention them. A class,
 * not an object literal with getters, which V8 builds far more slowly (one per query call).
 */
class DeferredRead implements DataOperation {
  readonly kind = 'read';
  readonly fields: Field[] = [];
  readonly arbitrated = false;
  private read: SqlRead | null | undefined;
  private readonly lower: string;

  constructor(
    private readonly sql: EmbeddedSql,
    readonly node: DataOperation['node'],
    readonly library: LibraryName,
  ) {
    this.lower = sql.text.toLowerCase();
  }

  private statement(): SqlRead | null {
    if (this.read === undefined)
      this.read = this.sql.summary?.statements.find((candidate) => candidate.kind === 'read') ?? null;
    return this.read;
  }

  get targets(): string[] {
    return this.statement()?.tables.map(normaliseTarget) ?? [];
  }

  get locksRows(): boolean {
    return rowLocking.test(this.sql.text) && this.statement()?.locksRows === true;
  }

  get filters(): Field[] | undefined {
    return columnsMatched(this.statement()?.filters);
  }

  get label(): string {
    return `a SELECT on ${this.statement()?.tables.join(', ') || 'no table'}`;
  }

  // `refunds` and `categories` in the text for the targets `refund` and `category`.
  readonly mayTouch = (target: string): boolean =>
    this.lower.includes(target.endsWith('y') ? target.slice(0, -1) : target);

  /** What a copy holds: every value read now, in the order an object literal would give them. */
  settled(): DataOperation {
    return {
      kind: this.kind,
      library: this.library,
      node: this.node,
      fields: this.fields,
      arbitrated: this.arbitrated,
      targets: this.targets,
      locksRows: this.locksRows,
      filters: this.filters,
      label: this.label,
      mayTouch: this.mayTouch,
    };
  }
}

/** An UPDATE or DELETE: its table is read from the parse only when a rule asks for it. A class, as DeferredRead is. */
class DeferredChange implements DataOperation {
  readonly kind: 'update' | 'delete';
  readonly arbitrated = false;
  private change: SqlChange | null | undefined;

  constructor(
    private readonly sql: EmbeddedSql,
    readonly node: DataOperation['node'],
    readonly library: LibraryName,
  ) {
    this.kind = /^\s*update\b/i.test(sql.text) ? 'update' : 'delete';
  }

  private statement(): SqlChange | null {
    if (this.change === undefined)
      this.change =
        (this.sql.summary?.statements.find((candidate) => candidate.kind === this.kind) as SqlChange | undefined) ??
        null;
    return this.change;
  }

  get fields(): Field[] {
    return columnFields(this.sql, this.statement()?.sets);
  }

  get filters(): Field[] | undefined {
    return columnsMatched(this.statement()?.filters);
  }

  get targets(): string[] {
    const table = this.statement()?.table;
    return table ? [normaliseTarget(table)] : [];
  }

  get label(): string {
    return `the ${this.kind.toUpperCase()} of ${this.statement()?.table ?? 'a table'}`;
  }

  get adds(): readonly string[] | undefined {
    return this.statement()?.adds;
  }

  /** What a copy holds: every value read now, in the order an object literal would give them. */
  settled(): DataOperation {
    return {
      kind: this.kind,
      library: this.library,
      node: this.node,
      arbitrated: this.arbitrated,
      fields: this.fields,
      filters: this.filters,
      targets: this.targets,
      label: this.label,
      adds: this.adds,
    };
  }
}

/**
 * The operation as a plain object with every value it computes on demand read now: what a copy
 * of it (`{ ...operation }`) must start from, as spreading a class instance leaves its getters out.
 */
export function settledOperation(operation: DataOperation): DataOperation {
  return operation instanceof DeferredRead || operation instanceof DeferredChange ? operation.settled() : operation;
}

/** Operations written in SQL, in a query call or a tagged template, attributed to `library`. */
export function sqlOperations(
  node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
  scopeOf: ScopeOf,
  calls: SqlCalls,
  library: LibraryName,
): DataOperation[] {
  const sql = embeddedSql(node, scopeOf, calls);
  if (!sql) return [];
  const interest = sqlInterest(sql.text);
  if (interest === 'read') return [new DeferredRead(sql, node, library)];
  if (interest === 'change') return [new DeferredChange(sql, node, library)];
  if (interest !== 'write') return [];
  const summary = sql.summary;
  if (!summary) return [];
  return summary.statements.map((statement): DataOperation => {
    switch (statement.kind) {
      case 'insert': {
        const clause = statement.conflictClauseAt;
        const answerless = node.type === 'CallExpression' && calls.answerless?.has(calleeName(node.callee) ?? '');
        const at = clause && sql.sourceOffset(clause.offset);
        return {
          kind: statement.onConflict ? 'upsert' : 'insert',
          library,
          targets: [normaliseTarget(statement.table)],
          node,
          label: `the INSERT into ${statement.table}`,
          fields: columnFields(sql, statement.columns),
          conflictTarget: statement.onConflict?.target.length ? statement.onConflict.target : undefined,
          // INSERT INTO t VALUES (…) names no columns: it fills them all.
          fieldsComplete: statement.columns.every((column) => !column.name.startsWith('#')),
          arbitrated: Boolean(statement.onConflict) || statement.filtered,
          skipsDuplicates: statement.onConflict?.action === 'nothing' || statement.filtered,
          fix:
            !clause || at === undefined
              ? undefined
              : {
                  edit: 'on-conflict-do-nothing',
                  apply: (fixer) =>
                    fixer.insertTextAfterRange(
                      [at, at],
                      clause.beforeReturning ? 'ON CONFLICT DO NOTHING ' : ' ON CONFLICT DO NOTHING',
                    ),
                },
          // Last: keys added after a spread are slow to build in V8 (Node 20).
          ...(statement.onConflict?.inferred === 'columns'
            ? { arbiter: 'exact' as const }
            : statement.onConflict?.inferred === 'none'
              ? { arbiter: 'any' as const }
              : {}),
          ...(answerless ? { answerless: true } : {}),
        };
      }
      case 'read':
        return {
          kind: 'read',
          library,
          targets: statement.tables.map(normaliseTarget),
          node,
          label: `a SELECT on ${statement.tables.join(', ') || 'no table'}`,
          fields: [],
          arbitrated: false,
          locksRows: statement.locksRows,
          filters: columnsMatched(statement.filters),
        };
      case 'update':
      case 'delete':
        return {
          kind: statement.kind,
          library,
          targets: [normaliseTarget(statement.table)],
          node,
          label: `the ${statement.kind.toUpperCase()} of ${statement.table}`,
          fields: columnFields(sql, statement.sets),
          filters: columnsMatched(statement.filters),
          arbitrated: false,
          adds: statement.adds,
        };
      case 'serialisation':
        return {
          kind: 'serialisation',
          library,
          targets: [],
          node,
          label: statement.how,
          fields: [],
          arbitrated: false,
        };
    }
  });
}
