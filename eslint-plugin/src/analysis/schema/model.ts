import { columnName, words } from '../naming/names.js';
import { textOf } from '../project/files.js';
import { normaliseTarget } from '../contract/operation.js';
import type { DeclaredTable, RowTest } from '../contract/schema.js';

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
  /** For a partial index whose condition is tests of columns joined by AND: the rows it covers. */
  rowsWhere?: readonly RowTest[];
  /**
   * The table's primary key: an ORM that saves by it (TypeORM's `save()`) updates the row it
   * names instead of failing.
   */
  primary?: true;
  /** How the key is written, for messages: `@@unique([invoiceId, accountId])`, `UNIQUE (message_id)`. */
  written: string;
  /** The file that declares it. */
  file: string;
}

export { columnName };

/**
 * Model code the schema may also come from (entity classes, schema objects): modules found to
 * mention a model library, read only when a table they name is looked up. Parsing a module is
 * the costly part of the first check in a large project, and most name none of the tables a
 * file writes.
 */
export interface ModelSources {
  files: readonly string[];
  /** The tables a module declares (parsed once per modification by the caller). */
  read(file: string): readonly (DeclaredTable & { file: string })[];
}

export class SchemaModel {
  private byTable = new Map<string, UniqueKey[]>();
  private unsure = new Set<string>();
  /** Tables with a declaration the readers saw (not only registered under a name). */
  private seen = new Set<string>();
  private declaredWhole = new Set<string>();
  private declarations = new Map<string, { name: string; files: Set<string> }>();
  /** Each table name, and every name the same table goes by. */
  private names = new Map<string, Set<string>>();
  readonly files: readonly string[];
  /** Schema files found that could not be read: any table's keys may be declared there. */
  readonly unreadable: readonly string[];

  /** What each unreadable file mentions (targets); unknown, it may declare any table. */
  private readonly unreadableMentions: readonly ReadonlySet<string>[] | undefined;
  /** Model modules not read yet, and what those read declared (in the order found, as if all were read at once). */
  private unread: readonly string[];
  private readonly modelTables = new Map<string, readonly (DeclaredTable & { file: string })[]>();

  constructor(
    private readonly tables: readonly (DeclaredTable & { file: string })[],
    files: readonly string[],
    unreadable: readonly string[] = [],
    unreadableMentions?: readonly ReadonlySet<string>[],
    private readonly models?: ModelSources,
  ) {
    this.files = files;
    this.unreadable = unreadable;
    this.unreadableMentions = unreadableMentions;
    this.unread = models?.files ?? [];
    this.index();
  }

  /** The files the schema was read from so far: its schema files, and the model modules read that declare tables. */
  filesRead(): string[] {
    return [...this.files, ...[...this.modelTables].filter(([, tables]) => tables.length > 0).map(([file]) => file)];
  }

  private index(): void {
    this.byTable = new Map();
    this.unsure = new Set();
    this.seen = new Set();
    this.declaredWhole = new Set();
    this.declarations = new Map();
    const fromModels = (this.models?.files ?? []).flatMap((file) => this.modelTables.get(file) ?? []);
    const all = [...this.tables, ...fromModels];
    // The names one table goes by (an entity and the table it maps to): what a declaration under
    // one of them says (a migration's keys on `member_cache`) holds under each (`MemberCacheItem`).
    const names = (this.names = new Map<string, Set<string>>());
    for (const declared of all) {
      const group = new Set([declared.table, ...(declared.aliases ?? [])].map(normaliseTarget));
      for (const target of [...group]) for (const known of names.get(target) ?? []) group.add(known);
      for (const target of group) names.set(target, group);
    }
    for (const declared of all) {
      for (const target of names.get(normaliseTarget(declared.table)) ?? []) {
        if (declared.unsure) this.unsure.add(target);
        if (!declared.unseen) this.seen.add(target);
        if (!declared.addition) this.declaredWhole.add(target);
        const declaration = this.declarations.get(target) ?? { name: declared.table, files: new Set<string>() };
        declaration.files.add(declared.file);
        this.declarations.set(target, declaration);
        const keys = this.byTable.get(target) ?? [];
        for (const key of declared.keys)
          keys.push({
            ...key,
            columns: key.columns.map(columnName),
            ...(key.rowsWhere
              ? { rowsWhere: key.rowsWhere.map((test) => ({ ...test, column: columnName(test.column) })) }
              : {}),
            file: declared.file,
          });
        this.byTable.set(target, keys);
      }
    }
  }

  /**
   * Reads the model modules that could declare `target` (every one, without a target): a module
   * that never spells the table's words, in any case or form, declares nothing of it. Then those
   * that spell another name the table goes by (`member_cache` for `MemberCacheItem`).
   */
  private readModels(target?: string, depth = 0): void {
    if (this.unread.length === 0 || !this.models) return;
    const stems = target === undefined ? [] : words(target).map((word) => word.replace(/[ys]$/, ''));
    const due = this.unread.filter((file) => {
      if (stems.length === 0) return true;
      const text = (textOf(file) ?? '').toLowerCase();
      return stems.every((stem) => text.includes(stem));
    });
    if (due.length === 0) return;
    for (const file of due) this.modelTables.set(file, this.models.read(file));
    this.unread = this.unread.filter((file) => !this.modelTables.has(file));
    this.index();
    if (target === undefined || depth > 0) return;
    for (const other of this.names.get(target) ?? []) if (other !== target) this.readModels(other, depth + 1);
  }

  /** Whether the schema declares the table at all: only then does a missing key mean something. */
  knows(target: string): boolean {
    this.readModels(target);
    return this.byTable.has(target);
  }

  /** Whether `target` is registered but never defined where the readers look: its keys are unknown. */
  keysUnseen(target: string): boolean {
    return this.knows(target) && !this.seen.has(target);
  }

  /**
   * Whether the keys listed for `target` are all it has, as far as the readers can tell: the
   * table is declared whole somewhere (not only altered or indexed), no declaration of it left a
   * doubt, and no schema file failed to read. Only then may a rule say that a table has no key on
   * some columns.
   */
  keysSettled(target: string): boolean {
    this.readModels(target);
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
    this.readModels(target);
    const found = this.declarations.get(target);
    return found && { name: found.name, files: [...found.files] };
  }

  uniqueKeys(target: string): readonly UniqueKey[] {
    this.readModels(target);
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
    this.readModels();
    return this.byTable.size === 0;
  }
}
