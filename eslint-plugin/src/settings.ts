import Ajv from 'ajv';

import { LibraryTable } from './analysis/context/library-table.js';
import { defaultLibraryTable, libraries } from './libraries/index.js';
import { settingsAdapters } from './libraries/settings.js';

/**
 * `settings.idempotency` in an ESLint config: a team's own consumer registrations, SQL wrappers
 * and claim helpers, declared once and read as adapters. A malformed setting stops the lint with
 * a message naming it, as ESLint does for a rule's options.
 */

/**
 * The ESLint setting under which an editor passes the unsaved texts of its open documents
 * (absolute path → text): schemas, migrations and modules are then read as the user sees them.
 */
export const openDocumentsSetting = 'idempotency/openDocuments';

export class SettingsError extends Error {
  override name = 'SettingsError';

  /**
   * `where`: the path below `settings.idempotency` (`.consumers[0]`, or '' for the whole);
   * `problem`: what is wrong there. A host that takes the declarations from elsewhere (the
   * editor's own setting) names them by its own setting.
   */
  constructor(
    readonly where: string,
    readonly problem: string,
  ) {
    const message = `eslint-plugin-idempotency: settings.idempotency${where} ${problem}.`;
    super(message);
    // ESLint prints a fatal error's stack: for a setting to fix, the message is all that helps.
    this.stack = `${this.name}: ${message}`;
  }
}

const callPath = { type: 'string', pattern: '^[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*$' };
const position = { type: 'integer', minimum: 0 };
const memberPath = { type: 'string', pattern: '^[A-Za-z_$][\\w$-]*(\\.[A-Za-z_$][\\w$-]*)*$' };

export const settingsSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    consumers: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['call', 'handler'],
        properties: {
          call: callPath,
          handler: position,
          delivery: { type: 'array', items: memberPath, uniqueItems: true },
        },
      },
    },
    sql: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['call', 'sql'],
        properties: { call: callPath, sql: position, params: position },
      },
    },
    schema: { type: 'array', items: { type: 'string', minLength: 1 } },
    claims: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['call', 'key'],
        properties: {
          call: callPath,
          key: position,
          table: { type: 'string', minLength: 1 },
          returns: { enum: ['claimed', 'duplicate'] },
        },
      },
    },
  },
} as const;

/** Compiled when a config first has declarations to check: most have none, and compiling costs every start. */
let validator: Ajv.ValidateFunction | undefined;
const validate = (own: object): boolean =>
  (validator ??= new Ajv({ allErrors: false, jsonPointers: false }).compile(settingsSchema))(own) as boolean;

function validationError(): SettingsError {
  const [error] = validator?.errors ?? [];
  if (!error) return new SettingsError('', 'is not valid');
  if (error.keyword === 'additionalProperties') {
    const extra = (error.params as { additionalProperty: string }).additionalProperty;
    return new SettingsError(error.dataPath, `has an unknown property "${extra}"`);
  }
  if (error.keyword === 'pattern')
    return new SettingsError(error.dataPath, 'must be a dotted name such as "bus.subscribe"');
  return new SettingsError(error.dataPath, error.message ?? 'is not valid');
}

const tables = new WeakMap<object, LibraryTable>();

/** The library table for a config's settings: the plugin's adapters, plus the team's own. */
export function libraryTableFor(settings: Readonly<Record<string, unknown>> | undefined): LibraryTable {
  const own = settings?.idempotency;
  if (own === undefined) return defaultLibraryTable;
  if (typeof own !== 'object' || own === null) throw new SettingsError('', 'must be an object');
  let table = tables.get(own);
  if (!table) {
    if (!validate(own)) throw validationError();
    // The team's declarations come first: they are more specific than any library's.
    table = new LibraryTable([...settingsAdapters(own), ...libraries]);
    tables.set(own, table);
  }
  return table;
}
