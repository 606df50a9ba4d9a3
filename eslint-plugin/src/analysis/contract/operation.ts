import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { ScopeOf } from '../syntax/static-text.js';

import { remembered } from '../syntax/remembered.js';

/**
 * One database operation found in the code, whatever library wrote it: the rules reason about
 * reads, inserts and upserts of a target (a table, a model, a Redis key shape), not about APIs.
 */

export type OperationKind = 'read' | 'insert' | 'upsert' | 'update' | 'delete' | 'serialisation';

export interface Field {
  /** Column or property name as written. */
  name: string;
  /** The expressions whose values fill the field (a SQL column may combine several parameters). */
  values: TSESTree.Node[];
  /** SQL functions that build the value, such as `gen_random_uuid`. */
  functions: string[];
  /** A constant the SQL writes itself (`status = 'paid'`), as text. */
  constant?: string;
}

export interface DataOperation {
  kind: OperationKind;
  /** The adapter that recognised the operation: its remedy, key policy and label. */
  library: string;
  /** Tables, models or key shapes the operation touches, normalised (`Refund` → `refund`). */
  targets: string[];
  /** The call or tagged template that runs it. */
  node: TSESTree.Node;
  /** Inserted or upserted fields, or the fields an update sets, where the adapter shows them. */
  fields: Field[];
  /** The unique key the write settles duplicates on (ON CONFLICT target, upsert `where`), if named. */
  conflictTarget?: string[];
  /**
   * How the database picks the unique key that settles the write, when the adapter knows:
   * `exact`, a key on exactly `conflictTarget` (ON CONFLICT (cols): without one the statement
   * is rejected); `any`, whichever key the inserted row fills (ON CONFLICT DO NOTHING with no
   * target: without one nothing ever conflicts); `within`, a key among the fields matched on (a
   * document store's upsert by filter: without one, concurrent upserts insert twice).
   */
  arbiter?: 'exact' | 'any' | 'within';
  /** The expression that holds the whole row or document an insert stores (`create(data)`'s `data`), where the adapter shows one. */
  document?: TSESTree.Node;
  /** `fields` are all the fields the write sets: no spread, no computed name, no nested write. */
  fieldsComplete?: boolean;
  /** The write settles duplicates itself: ON CONFLICT, upsert, SET NX, INSERT … WHERE NOT EXISTS. */
  arbitrated: boolean;
  /**
   * It settles them by writing nothing (DO NOTHING, ignore, NX): then only its result tells a
   * worker whether it came first, and code that ignores the result has not really asked.
   */
  skipsDuplicates?: boolean;
  /**
   * An insert that updates the row instead when one with its primary key is there (TypeORM's
   * `save()`): that key turns a second worker's save into an update rather than refusing it.
   */
  savesByPrimaryKey?: true;
  /**
   * A write declared to record that a delivery or operation was handled (a team's claim helper),
   * and what its result says when truthy: this worker `claimed` it, or it was a `duplicate`.
   */
  claim?: 'claimed' | 'duplicate';
  /** Its call resolves to nothing that says what it wrote (pg-promise's `none`): as if its result were ignored. */
  answerless?: boolean;
  /**
   * A key-value command's key, and how its shape (the target) is read from a key: a project's
   * wrapper handed the key (`s(k, v) { db.set(k, …) }`) touches what its caller's key names.
   */
  key?: {
    node: TSESTree.Node;
    shape: (key: TSESTree.Node, file: { scopeOf: ScopeOf; text: (node: TSESTree.Node) => string }) => string;
  };
  /** What a key-value write stores under its key (its value), as opposed to the key itself. */
  stored?: readonly TSESTree.Node[];
  /** The columns or fields a read (or an update) matches on, when the code shows them: what it checks for (values, when the code shows them too). */
  filters?: readonly Field[];
  /** The query a read is handed whole where its fields are not shown (`exists(filter)`): a helper's caller may show them. */
  criteria?: TSESTree.Node;
  /**
   * An update of a row the code holds, written through the row itself (`order.update({ paidAt })`,
   * `order.$query().patch(…)`, `order.save()` after `order.paidAt = now`): the row's name. Its
   * filters are the row's own key, which the code does not spell.
   */
  row?: TSESTree.Identifier;
  /** Columns an update adds to or takes from, as SQL writes it (`credits = credits + $1`); see `addedFields`. */
  adds?: readonly string[];
  /** A read that locks the rows it finds (FOR UPDATE). */
  locksRows?: boolean;
  /**
   * It runs in a transaction the database serialises against every other, retried when what it
   * read has changed before it commits (optimistic concurrency): a read and a write of one such
   * transaction cannot interleave with another worker's.
   */
  serialisable?: boolean;
  /** How it reads in messages: "a SELECT", "prisma.refund.findFirst()". */
  label: string;
  /** A cheap first answer to "could this touch `target`?", checked before `targets` is computed. */
  mayTouch?: (target: string) => boolean;
  /** An edit that lets the database settle duplicates, when a safe one exists. */
  fix?: OperationFix;
}

/** `RefundEntity`, `refunds`, `this.refundRepository` → `refund`-like names that compare equal. */
export const normaliseTarget: (name: string) => string = remembered(normalise);

function normalise(name: string): string {
  return name
    .replace(/^this\./, '')
    .replace(/(Repository|Repo|Model|Entity|Collection|Table|Schema)$/i, '')
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/^.*\./, '')
    .replace(/(ies)$/, 'y')
    .replace(/(?<!s)s$/, '');
}

/** Edits the rules may offer; each rule words them in its own messages. */
export type SafeEdit = 'on-conflict-do-nothing' | 'nx' | 'on-conflict-do-nothing-call';

/** A rule fix an adapter can build: which edit, and how to make it. */
export interface OperationFix {
  edit: SafeEdit;
  apply: (fixer: TSESLint.RuleFixer) => TSESLint.RuleFix;
}

/** Does the operation take a lock: an advisory lock, `LOCK TABLE`, a read of rows `FOR UPDATE`? */
export function takesLock(operation: DataOperation): boolean {
  return operation.kind === 'serialisation' || (operation.kind === 'read' && operation.locksRows === true);
}
