/** What a schema reader returns: the tables a schema file declares, with their unique keys; and how a violation of one is reported. */

/**
 * A test of one column that a partial key's condition makes: `IS NULL` (`empty`), `IS NOT NULL`
 * (`filled`), `= 'a'` or `IN ('a', 'b')` (`oneOf`), `<> 'a'` or `NOT IN ('a', 'b')` (`noneOf`).
 */
export type RowTest =
  | { column: string; empty: true }
  | { column: string; filled: true }
  | { column: string; oneOf: readonly string[] }
  | { column: string; noneOf: readonly string[] };

/** One table's keys as a schema file declares them, before normalisation. */
export interface DeclaredTable {
  table: string;
  /** Other names the same table goes by (a model and the table it is mapped to). */
  aliases?: readonly string[];
  /**
   * `rowsWhere`: a partial key's condition, when it is tests of columns joined by AND (`WHERE
   * deleted_at IS NULL`); `primary`: the table's primary key.
   */
  keys: readonly {
    columns: readonly string[];
    partial: boolean;
    written: string;
    rowsWhere?: readonly RowTest[];
    primary?: true;
  }[];
  /**
   * The reader met something that may declare a key it cannot read (an expression index, a
   * plugin, a copied or inherited table, a statement it could not parse that names the table):
   * the keys it lists may not be all the table has.
   */
  unsure?: boolean;
  /**
   * The declaration adds keys to a table declared elsewhere (ALTER TABLE, CREATE INDEX): alone it
   * does not show every key the table has.
   */
  addition?: boolean;
  /**
   * The table is registered here but defined where the reader cannot follow (a Mongoose schema
   * handed to `model()` by a loader function): nothing is known of its keys.
   */
  unseen?: boolean;
}

/** How code tells a unique violation from other errors, as a library reports it. */
export interface UniqueViolationCheck {
  /** Its codes: `P2002`; `23505` and `ER_DUP_ENTRY` (PostgreSQL's and MySQL's, through one ORM). */
  codes: readonly string[];
  /** Where the caught error holds the code: `code` when not said, `driverError.code`. */
  path?: readonly string[];
  /** The class the library throws it as, when the code alone is the database's: `QueryFailedError` of `typeorm`. */
  errorClass?: { name: string; module: string };
}
