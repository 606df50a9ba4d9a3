/** What a schema reader returns: the tables a schema file declares, with their unique keys. */

/** One table's keys as a schema file declares them, before normalisation. */
export interface DeclaredTable {
  table: string;
  /** Other names the same table goes by (a model and the table it is mapped to). */
  aliases?: readonly string[];
  keys: readonly { columns: readonly string[]; partial: boolean; written: string }[];
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
}
