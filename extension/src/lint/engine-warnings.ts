/** A schema file the plugin could not read, from its warning: the file, and what it tried to read it as. */
export interface SkippedSchema {
  file: string;
  readAs: string;
}

/**
 * The plugin warns once for each schema file it cannot read ("eslint-plugin-idempotency skipped
 * FILE: it could not be read as KIND. …"); the editor reads the file and the kind from it.
 */
export function skippedSchemaOf(warning: string): SkippedSchema | undefined {
  const found = /skipped (.+?): it could not be read as (.+?)\. /.exec(warning);
  return found ? { file: found[1], readAs: found[2] } : undefined;
}
