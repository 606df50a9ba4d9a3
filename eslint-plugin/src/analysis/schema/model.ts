import { words } from '../naming/names.js';
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

  constructor(tables: readonly (DeclaredTable & { file: string })[], files: readonly string[], unreadable: readonly string[] = []) {
    this.files = files;
    this.unreadable = unreadable;
    for (const declared of tables) {
      for (const name of [declared.table, ...(declared.aliases ?? [])]) {
        const target = normaliseTarget(name);
        if (declared.unsure) this.unsure.add(target);
        if (!declared.addition) this.declaredWhole.add(target);
        const declaration = this.declarations.get(target) ?? { name: declared.table, files: new Set<string>() };
        declaration.files.add(declared.file);
        this.declarations.set(target, declaration);
        const keys = this.byTable.get(target) ?? [];
        for (const key of declared.keys) keys.push({ ...key, columns: key.columns.map(columnName), file: declared.file });
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
    return this.uniqueKeys(target).find((key) => !key.partial && key.columns.length > 0 && key.columns.every((column) => given.has(column)));
  }

  get empty(): boolean {
    return this.byTable.size === 0;
  }
}
