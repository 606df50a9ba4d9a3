import { words } from '../naming/names.js';
import { textOf } from '../project/files.js';
import { normaliseTarget } from '../contract/operation.js';
import type { DeclaredTable } from '../contract/schema.js';

/**
 * What a project's schema says arbitrates duplicates: the unique keys of each table (primary
 * keys, unique constraints, unique indexes), read from its schema files and migrations. Tables
 * and columns are compared by their words, so `Refund.refundId` and `refunds.refund_id` meet.
 */

export interface UniqueKey {
  /** The key's columns, normalised (`refund_id`). */
  columns: readonly string[];
  /** A partial index (`… WHERE deleted_at IS NULL`) settles duplicates only among the rows it covers. */
  partial: boolean;
  /** How the key is written, for messages: `@@unique([invoiceId, accountId])`, `UNIQUE (message_id)`. */
  written: string;
  /** The file that declares it. */
  file: string;
}

export function columnName(name: string): string {
  return words(name).join('_');
}

export class SchemaModel {
  private readonly byTable = new Map<string, UniqueKey[]>();
  private readonly unsure = new Set<string>();
  private readonly declaredWhole = new Set<string>();
  private readonly declarations = new Map<string, { name: string; files: Set<string> }>();
  readonly files: readonly string[];
  /** Schema files found that could not be read: any table's keys may be declared there. */
  readonly unreadable: readonly string[];

  /** What each unreadable file mentions (targets); unknown, it may declare any table. */
  private readonly unreadableMentions: readonly ReadonlySet<string>[] | undefined;

  constructor(
    tables: readonly (DeclaredTable & { file: string })[],
    files: readonly string[],
    unreadable: readonly string[] = [],
    unreadableMentions?: readonly ReadonlySet<string>[],
  ) {
    this.files = files;
    this.unreadable = unreadable;
    this.unreadableMentions = unreadableMentions;
    for (const declared of tables) {
      for (const name of [declared.table, ...(declared.aliases ?? [])]) {
        const target = normaliseTarget(name);
        if (declared.unsure) this.unsure.add(target);
        if (!declared.addition) this.declaredWhole.add(target);
        const declaration = this.declarations.get(target) ?? { name: declared.table, files: new Set<string>() };
        declaration.files.add(declared.file);
        this.declarations.set(target, declaration);
        const keys = this.byTable.get(target) ?? [];
        for (const key of declared.keys)
          keys.push({ ...key, columns: key.columns.map(columnName), file: declared.file });
        this.byTable.set(target, keys);
      }
    }
  }

  /** Whether the schema declares the table at all: only then does a missing key mean something. */
  knows(target: string): boolean {
    return this.byTable.has(target);
  }

  /**
   * Whether the keys listed for `target` are all it has, as far as the readers can tell: the
   * table is declared whole somewhere (not only altered or indexed), no declaration of it left a
   * doubt, and no schema file failed to read. Only then may a rule say that a table has no key on
   * some columns.
   */
  keysSettled(target: string): boolean {
    return this.declaredWhole.has(target) && !this.unsure.has(target) && this.unreadable.length === 0;
  }

  /**
   * Whether a schema file that could not be read may declare keys of `target` (it names the
   * table): what it would have settled is then unknown, and no rule may read it as "no key".
   */
  unreadableFor(target: string): boolean {
    if (this.unreadable.length === 0) return false;
    return !this.unreadableMentions || this.unreadableMentions.some((names) => names.has(target));
  }

  /** How the schema names `target` (its first declaration's table name), and the files that declare it. */
  declaration(target: string): { name: string; files: readonly string[] } | undefined {
    const found = this.declarations.get(target);
    return found && { name: found.name, files: [...found.files] };
  }

  uniqueKeys(target: string): readonly UniqueKey[] {
    return this.byTable.get(target) ?? [];
  }

  /**
   * A full (not partial) unique key of `target` whose columns are all among `columns`: a second
   * write of the same values fails on it, whatever the application checked first.
   */
  keyWithin(target: string, columns: readonly string[]): UniqueKey | undefined {
    const given = new Set(columns.map(columnName));
    return this.uniqueKeys(target).find(
      (key) => !key.partial && key.columns.length > 0 && key.columns.every((column) => given.has(column)),
    );
  }

  private readonly mentions = new Map<string, boolean>();

  /**
   * Could a schema file that failed to read declare keys of `target`: does one name the table
   * (`payouts`, `Payout`, `wallet_transactions`)? A file that never names it cannot key it.
   */
  unreadableMayDeclare(target: string): boolean {
    if (this.unreadable.length === 0) return false;
    let known = this.mentions.get(target);
    if (known === undefined) {
      const parts = words(target);
      const name = new RegExp(
        `(^|[^A-Za-z0-9])${parts.map((part) => part.replace(/[^a-z0-9]/g, '')).join('_?')}(e?s)?($|[^A-Za-z0-9])`,
        'i',
      );
      known =
        parts.length === 0 ||
        this.unreadable.some((file) => {
          const text = textOf(file);
          return text === undefined || name.test(text);
        });
      this.mentions.set(target, known);
    }
    return known;
  }

  get empty(): boolean {
    return this.byTable.size === 0;
  }
}
