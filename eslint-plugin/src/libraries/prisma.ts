import { getSchema, type AttributeArgument, type Model } from '@mrleebo/prisma-ast/dist/prisma-ast.esm.js';
import type { TSESTree } from '@typescript-eslint/utils';

import {
  fieldsOf,
  memberPath,
  normaliseTarget,
  objectLiteral,
  objectProperty,
  showsEveryField,
  uniqueKeyFields,
  variableOf,
  type AdapterFile,
  type DataAdapter,
  type DataOperation,
  type DeclaredTable,
  type SchemaFiles,
} from '../analysis/index.js';

/** Prisma Client: `prisma.refund.findFirst(…)`, `tx.refund.create({ data })`, `…upsert({ where, create })`. */

const reads = new Set([
  'findUnique',
  'findUniqueOrThrow',
  'findFirst',
  'findFirstOrThrow',
  'findMany',
  'count',
  'aggregate',
  'groupBy',
]);
const prismaOnly = new Set(['findUnique', 'findUniqueOrThrow', 'findFirst', 'findFirstOrThrow']);
const writes = [
  'create',
  'createMany',
  'createManyAndReturn',
  'upsert',
  'update',
  'updateMany',
  'delete',
  'deleteMany',
];

/**
 * `users.update(…)` on a model delegate handed over by itself, declared with Prisma's own type
 * (`users: PrismaClient['user']`, a parameter or a constant): the model the type names.
 */
function declaredDelegate(receiver: TSESTree.Node, file: AdapterFile): string | undefined {
  if (receiver.type !== 'Identifier') return undefined;
  const name = variableOf(receiver, file.scopeOf(receiver))?.defs[0]?.name;
  const type = name?.type === 'Identifier' ? name.typeAnnotation?.typeAnnotation : undefined;
  if (type?.type !== 'TSIndexedAccessType' || type.objectType.type !== 'TSTypeReference') return undefined;
  const client = type.objectType.typeName;
  const index = type.indexType;
  if (client.type !== 'Identifier' || client.name !== 'PrismaClient' || index.type !== 'TSLiteralType')
    return undefined;
  return index.literal.type === 'Literal' && typeof index.literal.value === 'string' ? index.literal.value : undefined;
}

function prismaOperation(call: TSESTree.CallExpression, file: AdapterFile): DataOperation | undefined {
  const scopeOf = file.scopeOf;
  if (call.callee.type !== 'MemberExpression') return undefined;
  const delegate = declaredDelegate(call.callee.object, file);
  // client.model.method(…): at least two member steps, else it is not Prisma's shape.
  if (!delegate && call.callee.object.type !== 'MemberExpression') return undefined;
  const path = memberPath(call.callee);
  if (!path || path.length < (delegate ? 2 : 3)) return undefined;
  const method = path[path.length - 1];
  const model = delegate ?? path[path.length - 2];
  // `db.query.refunds.findFirst()` is Drizzle's relational API: Prisma's client has no `query`.
  if (!delegate && path[path.length - 3] === 'query') return undefined;
  // `this.tenantRepository.create({ data })` is a team's repository, not a Prisma model delegate.
  if (model.startsWith('$') || /(Repository|Repo|Service|Store|Dao)$/i.test(model)) return undefined;
  const options = objectLiteral(call.arguments[0], scopeOf);
  const has = (name: string) => Boolean(options && objectProperty(options, name));
  // A home-made data layer with Prisma-like names takes its table as an option; Prisma never does.
  if (has('table') || has('tableName')) return undefined;
  // Completed with Object.assign, not `{ ...base, kind }`: V8 (Node 20) builds a spread followed by new keys very slowly.
  const base = {
    library: 'prisma' as const,
    targets: [normaliseTarget(model)],
    node: call,
    label: `${path.join('.')}()`,
    fields: [],
    arbitrated: false,
  };

  if (prismaOnly.has(method) || (reads.has(method) && (has('where') || has('select')))) {
    const where = options && objectProperty(options, 'where')?.value;
    // No `where` at all (`findFirst()`): any row of the model will do, as for a singleton.
    const any = call.arguments.length === 0 || (options !== undefined && !where);
    return Object.assign(base, {
      kind: 'read' as const,
      filters: where ? uniqueKeyFields(where, scopeOf) : any ? [] : undefined,
    });
  }
  if ((method === 'create' || method === 'createMany' || method === 'createManyAndReturn') && has('data')) {
    const skipDuplicates = objectProperty(options!, 'skipDuplicates')?.value;
    return Object.assign(base, {
      kind: 'insert' as const,
      fields: fieldsOf(objectProperty(options!, 'data')?.value, scopeOf),
      fieldsComplete: showsEveryField(objectProperty(options!, 'data')?.value, scopeOf),
      // skipDuplicates is ON CONFLICT DO NOTHING: any unique key the rows fill.
      arbitrated: skipDuplicates?.type === 'Literal' && skipDuplicates.value === true,
      skipsDuplicates: skipDuplicates?.type === 'Literal' && skipDuplicates.value === true,
      ...(skipDuplicates?.type === 'Literal' && skipDuplicates.value === true ? { arbiter: 'any' as const } : {}),
    });
  }
  if (method === 'upsert' && has('where') && has('create')) {
    const where = uniqueKeyFields(objectProperty(options!, 'where')?.value, scopeOf);
    return Object.assign(base, {
      kind: 'upsert' as const,
      fields: [...where, ...fieldsOf(objectProperty(options!, 'create')?.value, scopeOf)],
      // Both what it creates and what it updates are shown whole.
      fieldsComplete:
        showsEveryField(objectProperty(options!, 'create')?.value, scopeOf) &&
        showsEveryField(objectProperty(options!, 'update')?.value, scopeOf),
      conflictTarget: where.map((field) => field.name),
      arbitrated: true,
    });
  }
  if ((method === 'update' || method === 'updateMany') && has('where'))
    return Object.assign(base, {
      kind: 'update' as const,
      fields: fieldsOf(objectProperty(options!, 'data')?.value, scopeOf),
      fieldsComplete: showsEveryField(objectProperty(options!, 'data')?.value, scopeOf),
      filters: uniqueKeyFields(objectProperty(options!, 'where')?.value, scopeOf),
    });
  if ((method === 'delete' || method === 'deleteMany') && has('where'))
    return Object.assign(base, { kind: 'delete' as const });
  return undefined;
}

function unquoted(value: unknown): string | undefined {
  return typeof value === 'string' ? value.replace(/^"|"$/g, '') : undefined;
}

/** The field names of `@@unique([a, b])`, `@@id([a, b])`: the array argument, first or as `fields:`; `@@id(a)` names one. */
function attributeFields(args: readonly AttributeArgument[]): string[] {
  const [first] = args;
  if (typeof first?.value === 'string' && /^\w+$/.test(first.value)) return [first.value];
  for (const argument of args) {
    const value = argument.value as unknown as {
      type?: string;
      args?: unknown[];
      key?: string;
      value?: { type?: string; args?: unknown[] };
    };
    const list =
      value.type === 'array' ? value : value.type === 'keyValue' && value.key === 'fields' ? value.value : undefined;
    if (list?.type === 'array') return (list.args ?? []).map((item) => String(item).replace(/\(.*$/, ''));
  }
  return [];
}

/**
 * The schema as the parser's lexer can read it: Prisma also accepts block comments, spaces at
 * the end of a line and no-break spaces, which that lexer rejects (a space after `{` swallows the
 * line break it expects). Comments become blanks, no-break spaces plain ones, and line ends lose
 * their spaces; no line moves.
 */
function lexable(text: string): string {
  return text
    .replace(/"(?:[^"\\\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (token) =>
      token.startsWith('/*') ? token.replace(/[^\n]/g, ' ') : token,
    )
    .replace(/[\u00a0\u2000-\u200a\u202f\u3000\ufeff]/g, ' ')
    .replace(/[ \t]+(?=\r?\n|$)/g, '');
}

/** The models of a Prisma schema and their unique keys: `@id`, `@unique`, `@@id`, `@@unique`. */
function prismaSchemaKeys(text: string): DeclaredTable[] | null {
  let models: Model[];
  try {
    models = getSchema(lexable(text)).list.filter((block): block is Model => block.type === 'model');
  } catch {
    return null;
  }
  return models.map((model) => {
    const keys: DeclaredTable['keys'][number][] = [];
    let mapped: string | undefined;
    /** A field's column, where `@map("refund_id")` names one other than the field. */
    const columns = new Map<string, string>();
    for (const property of model.properties) {
      if (property.type === 'field') {
        const field = property;
        const column = unquoted(field.attributes?.find((attribute) => attribute.name === 'map')?.args?.[0]?.value);
        if (column) columns.set(field.name, column);
        for (const attribute of field.attributes ?? []) {
          if (attribute.name === 'id' || attribute.name === 'unique')
            keys.push({
              columns: [field.name],
              partial: false,
              written: `${model.name}.${field.name} @${attribute.name}`,
            });
        }
      } else if (property.type === 'attribute') {
        const attribute = property;
        if (attribute.name === 'map') mapped = unquoted(attribute.args[0]?.value);
        if (attribute.name === 'id' || attribute.name === 'unique') {
          const fields = attributeFields(attribute.args);
          if (fields.length > 0)
            keys.push({
              columns: fields,
              partial: false,
              written: `@@${attribute.name}([${fields.join(', ')}]) on ${model.name}`,
            });
        }
      }
    }
    // SQL sent as text names the columns, the client names the fields: a key holds under both.
    const inColumns = keys
      .filter((key) => key.columns.some((field) => columns.has(field)))
      .map((key) => ({ ...key, columns: key.columns.map((field) => columns.get(field) ?? field) }));
    return { table: model.name, aliases: mapped ? [mapped] : [], keys: [...keys, ...inColumns] };
  });
}

/** `"prisma": { "schema": "db/schema.prisma" }` in package.json. */
function packageSchemaPath(text: string): string[] {
  const schema = (JSON.parse(text) as { prisma?: { schema?: unknown } } | null)?.prisma?.schema;
  return typeof schema === 'string' ? [schema] : [];
}

/** `schema: 'prisma/schema'` in `defineConfig({ … })`, when written as a literal (the config is read, never run). */
function configSchemaPath(text: string): string[] {
  const written = /\bschema\s*:\s*(['"`])([^'"`$\n]+)\1/.exec(text);
  return written ? [written[2]] : [];
}

/** Prisma Migrate's folder: beside the schema file, or inside the schema folder, unless the config names its own. */
function migrationsBeside(schemaPaths: readonly string[]): string[] {
  return schemaPaths.map((given) =>
    given.endsWith('.prisma') ? `${given.replace(/[^/]*$/, '')}migrations` : given.replace(/\/?$/, '/migrations'),
  );
}

/**
 * Where a project that moved its Prisma schema keeps the migrations Prisma Migrate writes: SQL,
 * read by the SQL reader (`migrations: { path }` in prisma.config.ts, else beside the schema).
 */
export const prismaMigrationPointers: NonNullable<SchemaFiles['pointers']> = [
  { file: 'package.json', paths: (text) => migrationsBeside(packageSchemaPath(text)) },
  ...['prisma.config.ts', 'prisma.config.mts', 'prisma.config.js', 'prisma.config.mjs'].map((file) => ({
    file,
    paths: (text: string) => {
      const named = /\bmigrations\s*:\s*\{[^}]*?\bpath\s*:\s*(['"`])([^'"`$\n]+)\1/.exec(text);
      return named ? [named[2]] : migrationsBeside(configSchemaPath(text));
    },
  })),
];

export const prisma: DataAdapter = {
  kind: 'data',
  name: 'prisma',
  label: 'Prisma',
  modules: ['@prisma/client', /^\.prisma\//, /\/generated\/prisma/],
  methods: new Set([...reads, ...writes]),
  recognise: (node, file) => (node.type === 'CallExpression' ? prismaOperation(node, file) : undefined),
  remedy: 'an upsert, or create and treat error P2002 as the duplicate',
  // `{ credits: { increment: 5 } }` adds to the stored value.
  increments: { operators: ['increment', 'decrement'] },
  uniqueViolations: ['P2002'],
  uniqueKey: {
    violation: { codes: ['P2002'] },
    declare: (write, fields, declared) => {
      // The client's delegate is the model's name with a lower-case first letter: `prisma.processedMessage`.
      const delegate = /(\w+)\.\w+\(\)$/.exec(write.label)?.[1] ?? write.targets[0] ?? 'Model';
      const model = declared ?? `${delegate[0].toUpperCase()}${delegate.slice(1)}`;
      return fields.length === 1
        ? `@unique to field ${model}.${fields[0]}`
        : `@@unique([${fields.join(', ')}]) to model ${model}`;
    },
  },
  schema: {
    locations: [
      // `prisma/schema.prisma`, a multi-file schema (`prisma/schema/*.prisma`, in subfolders too)
      // and one schema per provider (`prisma/postgres/schema.prisma`).
      { folder: 'prisma', ending: '.prisma', depth: 3 },
      'schema.prisma',
      'src/prisma/schema.prisma',
      'db/schema.prisma',
    ],
    // Where a project moved it: package.json's `prisma.schema`, or `schema` in prisma.config.ts.
    pointers: [
      { file: 'package.json', paths: packageSchemaPath },
      ...['prisma.config.ts', 'prisma.config.mts', 'prisma.config.js', 'prisma.config.mjs'].map((file) => ({
        file,
        paths: configSchemaPath,
      })),
    ],
    endings: ['.prisma'],
    read: (text) => prismaSchemaKeys(text),
    kind: 'a Prisma schema',
    // A client is generated from a schema: a model the project's schema lacks comes from one kept elsewhere (a package).
    declaresEveryTable: true,
  },
};
