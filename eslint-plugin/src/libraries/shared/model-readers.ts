import type { TSESTree } from '@typescript-eslint/utils';

import {
  calleeName,
  keyName,
  objectLiteral,
  objectProperty,
  propertyName,
  staticString,
  unwrapExpression,
  walk,
  type AdapterFile,
  type DeclaredTable,
} from '../../analysis/index.js';

/**
 * Unique keys declared in code rather than in schema files, one reader per library: TypeORM
 * entity decorators, Mongoose schemas, knex migrations, and Sequelize models and migrations.
 * Read from the project's modules (parsed, never run).
 */

function decoratorName(decorator: TSESTree.Decorator): string | undefined {
  const expression = decorator.expression;
  return expression.type === 'CallExpression'
    ? calleeName(expression.callee)
    : expression.type === 'Identifier'
      ? expression.name
      : undefined;
}

function decoratorArguments(decorator: TSESTree.Decorator): TSESTree.CallExpressionArgument[] {
  return decorator.expression.type === 'CallExpression' ? decorator.expression.arguments : [];
}

function isTrue(node: TSESTree.Node | undefined): boolean {
  return node?.type === 'Literal' && node.value === true;
}

function strings(node: TSESTree.Node | undefined): string[] {
  const list = node && unwrapExpression(node);
  if (list?.type !== 'ArrayExpression') return [];
  return list.elements.flatMap((element) =>
    element?.type === 'Literal' && typeof element.value === 'string' ? [element.value] : [],
  );
}

function optionFalse(options: TSESTree.Node | undefined, name: string, file: AdapterFile): boolean {
  const object = objectLiteral(options, file.scopeOf);
  const value = object && objectProperty(object, name)?.value;
  return value?.type === 'Literal' && value.value === false;
}

/** `{ unique: true }`: whether an options object literal (or a constant holding one) sets `name` to `true`. */
export function optionTrue(options: TSESTree.Node | undefined, name: string, file: AdapterFile): boolean {
  const object = objectLiteral(options, file.scopeOf);
  return Boolean(object && isTrue(objectProperty(object, name)?.value));
}

/**
 * A TypeORM migration's tables: `queryRunner.createTable(new Table({ name, columns, indices,
 * uniques }))` declares a table whole, with a key for its primary columns, each `isUnique` column,
 * and each unique index or constraint; `createIndex('t', new TableIndex({ columnNames, isUnique:
 * true }))` and `createUniqueConstraint('t', new TableUnique({ columnNames }))` add one.
 */
export function typeormMigrationTables(file: AdapterFile): DeclaredTable[] {
  const tables: DeclaredTable[] = [];
  const fromTypeorm = (name: string) => file.imports.bindings.get(name) === 'typeorm';
  const made = (node: TSESTree.Node | undefined, className: string) => {
    const inner = node && unwrapExpression(node);
    return inner?.type === 'NewExpression' && inner.callee.type === 'Identifier' && inner.callee.name === className
      ? objectLiteral(inner.arguments[0], file.scopeOf)
      : undefined;
  };
  const literal = (object: TSESTree.ObjectExpression, name: string) => {
    const value = objectProperty(object, name)?.value;
    return value?.type === 'Literal' && typeof value.value === 'string' ? value.value : undefined;
  };
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if (node.type !== 'NewExpression' && node.type !== 'CallExpression') return;
    const definition = node.type === 'NewExpression' && fromTypeorm('Table') ? made(node, 'Table') : undefined;
    if (definition) {
      const name = literal(definition, 'name');
      if (!name) return;
      const keys: DeclaredTable['keys'][number][] = [];
      let unsure = definition.properties.some((property) => property.type !== 'Property');
      const primary: string[] = [];
      const list = (key: string) => {
        const value = objectProperty(definition, key)?.value;
        if (value === undefined) return [];
        if (value.type !== 'ArrayExpression') {
          unsure = true;
          return [];
        }
        return value.elements.map((element) => {
          const object = element && element.type !== 'SpreadElement' ? objectLiteral(element, file.scopeOf) : undefined;
          if (!object) unsure = true;
          return object;
        });
      };
      for (const column of list('columns')) {
        const columnName = column && literal(column, 'name');
        if (!column || !columnName) continue;
        if (optionTrue(column, 'isPrimary', file)) primary.push(columnName);
        if (optionTrue(column, 'isUnique', file))
          keys.push({
            columns: [columnName],
            partial: false,
            written: `${columnName} isUnique in new Table('${name}')`,
          });
      }
      if (primary.length > 0)
        keys.push({
          columns: primary,
          partial: false,
          written: `the primary key of new Table('${name}')`,
          primary: true,
        });
      for (const [key, unique] of [
        ['indices', false],
        ['uniques', true],
      ] as const) {
        for (const entry of list(key)) {
          if (!entry || !(unique || optionTrue(entry, 'isUnique', file))) continue;
          const columns = strings(objectProperty(entry, 'columnNames')?.value);
          if (columns.length === 0) unsure = true;
          else
            keys.push({
              columns,
              partial: objectProperty(entry, 'where') !== undefined,
              written: `a unique ${key === 'uniques' ? 'constraint' : 'index'} on ${name}(${columns.join(', ')})`,
            });
        }
      }
      tables.push({ table: name, keys, ...(unsure ? { unsure } : {}) });
      return;
    }
    // queryRunner.createIndex('t', new TableIndex({ … isUnique: true })), createUniqueConstraint('t', new TableUnique({ … }))
    if (node.type !== 'CallExpression') return;
    const method = calleeName(node.callee);
    const className =
      method === 'createIndex' ? 'TableIndex' : method === 'createUniqueConstraint' ? 'TableUnique' : undefined;
    const table = node.arguments[0];
    const entry = className && fromTypeorm(className) ? made(node.arguments[1], className) : undefined;
    if (!entry || table?.type !== 'Literal' || typeof table.value !== 'string') return;
    if (className === 'TableIndex' && !optionTrue(entry, 'isUnique', file)) return;
    const columns = strings(objectProperty(entry, 'columnNames')?.value);
    tables.push({
      table: table.value,
      keys:
        columns.length > 0
          ? [
              {
                columns,
                partial: objectProperty(entry, 'where') !== undefined,
                written: `${method}('${table.value}', …${columns.join(', ')}…)`,
              },
            ]
          : [],
      addition: true,
      ...(columns.length === 0 ? { unsure: true } : {}),
    });
  });
  return tables;
}

/** `@Entity('refunds') class Refund { @PrimaryColumn() id; @Column({ unique: true }) refundId; }`, `@Unique([…])`, `@Index([…], { unique: true })`. */
export function typeormEntities(file: AdapterFile): DeclaredTable[] {
  const tables: DeclaredTable[] = [];
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if ((node.type !== 'ClassDeclaration' && node.type !== 'ClassExpression') || !node.id) return;
    const decorators = node.decorators ?? [];
    // `@Entity`, or a project's own decorator that wraps it (`@MultiORMEntity('heartbeats')`).
    const entity = decorators.find((decorator) => /^(?!View)\w*Entity$/.test(decoratorName(decorator) ?? ''));
    if (!entity) return;
    const className = node.id.name;
    const [first] = decoratorArguments(entity);
    const named =
      first?.type === 'Literal' && typeof first.value === 'string'
        ? first.value
        : objectLiteral(first, file.scopeOf) &&
          (objectProperty(objectLiteral(first, file.scopeOf)!, 'name')?.value as TSESTree.Literal | undefined)?.value;
    const keys: DeclaredTable['keys'][number][] = [];
    const primary: string[] = [];
    // A base class, a one-to-one relation (its join column is unique), an index kept out of
    // synchronisation or written in a way not read here: keys this reading does not list.
    let unsure =
      node.superClass !== null ||
      optionFalse(
        decoratorArguments(entity).find((argument) => objectLiteral(argument, file.scopeOf)),
        'synchronize',
        file,
      );
    for (const decorator of decorators) {
      const name = decoratorName(decorator);
      const args = decoratorArguments(decorator);
      if (name === 'Unique') {
        const columns = strings(args[args.length - 1]);
        if (columns.length > 0)
          keys.push({ columns, partial: false, written: `@Unique([${columns.join(', ')}]) on ${className}` });
        else unsure = true;
      } else if (name === 'Index' && optionTrue(args[args.length - 1], 'unique', file)) {
        const columns = strings(args.find((argument) => argument.type === 'ArrayExpression'));
        const partial = Boolean(
          objectLiteral(args[args.length - 1], file.scopeOf) &&
          objectProperty(objectLiteral(args[args.length - 1], file.scopeOf)!, 'where'),
        );
        if (columns.length > 0)
          keys.push({ columns, partial, written: `@Index([${columns.join(', ')}], { unique: true }) on ${className}` });
        else unsure = true;
      } else if (
        name === 'Index' &&
        (optionFalse(args[args.length - 1], 'synchronize', file) ||
          args.some(
            (argument) =>
              argument.type !== 'Literal' &&
              !objectLiteral(argument, file.scopeOf) &&
              argument.type !== 'ArrayExpression',
          ))
      ) {
        unsure = true;
      }
    }
    for (const member of node.body.body) {
      if (member.type !== 'PropertyDefinition') continue;
      const field = keyName(member);
      if (!field) continue;
      for (const decorator of member.decorators ?? []) {
        const name = decoratorName(decorator);
        const [options] = decoratorArguments(decorator).slice(-1);
        if (name === 'OneToOne') unsure = true;
        if (name === 'PrimaryColumn' || name === 'PrimaryGeneratedColumn') primary.push(field);
        else if ((name === 'Column' || name === 'Index') && optionTrue(options, 'unique', file))
          keys.push({ columns: [field], partial: false, written: `${className}.${field} (unique)` });
        else if (name === 'Column' && optionTrue(options, 'primary', file)) primary.push(field);
      }
    }
    if (primary.length > 0)
      keys.push({
        columns: primary,
        partial: false,
        written: `the primary key (${primary.join(', ')}) of ${className}`,
        primary: true,
      });
    // Every TypeORM entity has a primary column; finding none means the class is another
    // library's (MikroORM's @PrimaryKey) or declares it where this reading does not look.
    else unsure = true;
    tables.push({
      table: className,
      aliases: typeof named === 'string' ? [named] : [],
      keys,
      ...(unsure ? { unsure } : {}),
    });
  });
  return tables;
}

/** The fields of a schema definition declared `unique: true` (or `index: { unique: true }`). */
function uniqueFields(definition: TSESTree.ObjectExpression, file: AdapterFile): string[] {
  const fields: string[] = [];
  for (const property of definition.properties) {
    if (property.type !== 'Property') continue;
    const name = keyName(property);
    const options = objectLiteral(property.value, file.scopeOf);
    if (!name || !options) continue;
    const index = objectLiteral(objectProperty(options, 'index')?.value, file.scopeOf);
    if (isTrue(objectProperty(options, 'unique')?.value) || (index && isTrue(objectProperty(index, 'unique')?.value)))
      fields.push(name);
  }
  return fields;
}

/** Does `node` hold a `unique` option (or an index that is unique) anywhere inside? */
function mentionsUnique(node: TSESTree.Node, file: AdapterFile): boolean {
  return /\bunique\b/.test(file.text(node).replace(/\bunique\s*:\s*false\b/g, ''));
}

/** Field types whose definitions hold no options: `String`, `[Number]`, `Schema.Types.ObjectId`. */
const fieldTypes =
  /^(String|Number|Boolean|Date|Buffer|Map|Object|Array|BigInt|Mixed|ObjectId|Decimal128|UUID|Double|Int32)$/;

/**
 * Whether a schema definition may declare keys `uniqueFields` does not see: a spread, a computed
 * name, a field built by a call or taken from elsewhere, a `unique` deeper than a top-level field.
 */
function definitionUnsure(definition: TSESTree.ObjectExpression, file: AdapterFile): boolean {
  return definition.properties.some((property) => {
    if (property.type !== 'Property' || keyName(property) === undefined) return true;
    const value = unwrapExpression(property.value);
    const options = objectLiteral(value, file.scopeOf);
    if (options) {
      // { type: String, unique: true } is read; { nested: { deep: { unique: true } } } is not.
      const deeper = options.properties.filter(
        (option) => !(option.type === 'Property' && ['unique', 'index'].includes(keyName(option) ?? '')),
      );
      return (
        deeper.some((option) => mentionsUnique(option, file)) ||
        options.properties.some((option) => option.type !== 'Property')
      );
    }
    if (value.type === 'Identifier') return !fieldTypes.test(value.name) && !/Schema$/.test(value.name);
    if (value.type === 'MemberExpression') return false;
    if (value.type === 'ArrayExpression') return mentionsUnique(value, file);
    return value.type !== 'Literal' && mentionsUnique(value, file);
  });
}

/** Options of a decorator that may hold a key we cannot read (`@Prop(raw({ … }))`, a variable). */
function optionsUnsure(args: readonly TSESTree.CallExpressionArgument[], file: AdapterFile): boolean {
  return args.some((argument) => !objectLiteral(argument, file.scopeOf) && mentionsUnique(argument, file));
}

/** The implicit key of every MongoDB document. */
function idKey(model: string): DeclaredTable['keys'][number] {
  return { columns: ['_id'], partial: false, written: `_id of ${model}` };
}

/**
 * `const tenantSchema = new Schema({ email: { type: String, unique: true } })`,
 * `tenantSchema.index({ a: 1, b: 1 }, { unique: true })`, `model('Tenant', tenantSchema)`, and
 * NestJS's `@Schema() class Tenant { @Prop({ unique: true }) email }`. Every schema is listed,
 * keys or none (a document always has its `_id`); one the reader may not see whole (a plugin, a
 * spread, an option it cannot read) is marked unsure.
 */
/** `Schema` imported from another library (`import Schema from 'validate'`): not a Mongoose schema. */
function foreignSchema(callee: TSESTree.Node, file: AdapterFile): boolean {
  const source = callee.type === 'Identifier' ? file.imports.bindings.get(callee.name) : undefined;
  return source !== undefined && !/mongoose|typegoose/.test(source);
}

/** What a chain of calls starts from: `new Schema({ … })` of `new Schema({ … }).index(…).index(…)`. */
function chainBase(node: TSESTree.Node): TSESTree.Node {
  let base = node;
  while (base.type === 'CallExpression' && base.callee.type === 'MemberExpression') base = base.callee.object;
  return base;
}

/**
 * The variable a schema method is called on: `schema` of `schema.index(…)`, or the variable a
 * chain is kept in (`const schema = new Schema({ … }).index(…)`), whose calls add to that schema.
 */
function schemaHeld(receiver: TSESTree.Node): string | undefined {
  if (receiver.type === 'Identifier') return receiver.name;
  let top: TSESTree.Node = receiver;
  while (
    top.parent?.type === 'MemberExpression' &&
    top.parent.parent?.type === 'CallExpression' &&
    top.parent.parent.callee === top.parent
  )
    top = top.parent.parent;
  const holder = top.parent;
  return holder?.type === 'VariableDeclarator' && holder.init === top && holder.id.type === 'Identifier'
    ? holder.id.name
    : undefined;
}

export function mongooseSchemas(file: AdapterFile): DeclaredTable[] {
  const bySchema = new Map<
    string,
    { keys: DeclaredTable['keys'][number][]; models: string[]; unsure: boolean; defined: boolean }
  >();
  const entry = (name: string) => {
    let found = bySchema.get(name);
    if (!found) bySchema.set(name, (found = { keys: [], models: [], unsure: false, defined: false }));
    return found;
  };
  const classes: DeclaredTable[] = [];
  const registered: DeclaredTable[] = [];
  /** `new Schema({ … })` read into the entry `name`; false when `init` makes no Mongoose schema. */
  const schemaMade = (init: TSESTree.Node, name: string) => {
    if (
      (init.type !== 'NewExpression' && init.type !== 'CallExpression') ||
      calleeName(init.callee) !== 'Schema' ||
      foreignSchema(init.callee, file)
    )
      return false;
    const definition = objectLiteral(init.arguments[0], file.scopeOf);
    const target = entry(name);
    target.defined = true;
    for (const field of definition ? uniqueFields(definition, file) : [])
      target.keys.push({ columns: [field], partial: false, written: `${field} (unique: true)` });
    if (!definition || definitionUnsure(definition, file)) target.unsure = true;
    return true;
  };
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) {
      const init = unwrapExpression(node.init);
      if (
        !schemaMade(chainBase(init), node.id.name) &&
        init.type === 'CallExpression' &&
        calleeName(init.callee) === 'createForClass'
      ) {
        // SchemaFactory.createForClass(Tenant): the class says the fields; indexes may follow.
        entry(node.id.name).defined = true;
      }
    }
    if ((node.type === 'ClassDeclaration' || node.type === 'ClassExpression') && node.id) {
      const schema = (node.decorators ?? []).find((decorator) => decoratorName(decorator) === 'Schema');
      if (schema) classes.push(decoratedSchema(node, schema, file));
    }
    if (node.type !== 'CallExpression') return;
    const method = calleeName(node.callee);
    const receiver = node.callee.type === 'MemberExpression' ? schemaHeld(node.callee.object) : undefined;
    if (method === 'index' && receiver && optionTrue(node.arguments[1], 'unique', file)) {
      const fields = objectLiteral(node.arguments[0], file.scopeOf);
      const columns = fields
        ? fields.properties.flatMap((property) =>
            property.type === 'Property' && keyName(property) ? [keyName(property)!] : [],
          )
        : [];
      const partial = Boolean(
        objectLiteral(node.arguments[1], file.scopeOf) &&
        objectProperty(objectLiteral(node.arguments[1], file.scopeOf)!, 'partialFilterExpression'),
      );
      if (columns.length > 0)
        entry(receiver).keys.push({
          columns,
          partial,
          written: `${receiver}.index({ ${columns.join(', ')} }, { unique: true })`,
        });
      if (!fields || columns.length !== fields.properties.length) entry(receiver).unsure = true;
    } else if (method === 'index' && receiver && node.arguments[1] && !objectLiteral(node.arguments[1], file.scopeOf)) {
      // index(fields, options) with options we cannot read may be unique.
      entry(receiver).unsure = true;
    }
    // Plugins and later additions may bring keys of their own.
    if ((method === 'plugin' || method === 'add' || method === 'loadClass') && receiver && bySchema.has(receiver))
      entry(receiver).unsure = true;
    if (method === 'model' && node.arguments[0]?.type === 'Literal' && typeof node.arguments[0].value === 'string') {
      const schema = node.arguments[1] && unwrapExpression(node.arguments[1]);
      const model = node.arguments[0].value;
      if (schema?.type === 'Identifier') entry(schema.name).models.push(model);
      // `model('User', new Schema({ … }))`: the schema made in place, under the model's own name.
      else if (schema && schemaMade(schema, `${model}Schema`)) entry(`${model}Schema`).models.push(model);
      else if (schema) {
        // `models.ImapCustomers = db.model('imap_customers', loadImapCustomerClass(models))`: a
        // schema made by a function, which is not followed; the model is known by name only.
        const holder =
          node.parent?.type === 'AssignmentExpression'
            ? node.parent.left
            : node.parent?.type === 'VariableDeclarator'
              ? node.parent.id
              : undefined;
        const alias =
          holder?.type === 'MemberExpression'
            ? propertyName(holder)
            : holder?.type === 'Identifier'
              ? holder.name
              : undefined;
        registered.push({
          table: node.arguments[0].value,
          ...(alias ? { aliases: [alias] } : {}),
          keys: [],
          unseen: true,
        });
      }
    }
  });
  return [
    ...[...bySchema].flatMap(([schema, { keys, models, unsure, defined }]) => {
      // `TenantSchema` without a model call in this file is still named after its model.
      const names = models.length > 0 ? models : [schema.replace(/Schema$/i, '')];
      // A schema made in another module is not seen whole here.
      const doubt = unsure || !defined;
      return names.map((name) => ({ table: name, keys: [idKey(name), ...keys], ...(doubt ? { unsure: doubt } : {}) }));
    }),
    ...classes,
    ...registered,
  ];
}

/** `@Schema({ collection }) class EventKey { @Prop({ unique: true }) key: string }` (NestJS). */
function decoratedSchema(
  node: TSESTree.ClassDeclaration | TSESTree.ClassExpression,
  schema: TSESTree.Decorator,
  file: AdapterFile,
): DeclaredTable {
  const className = node.id!.name;
  const keys: DeclaredTable['keys'][number][] = [idKey(className)];
  // A base class or options we cannot read may declare keys of their own.
  let unsure = node.superClass !== null || optionsUnsure(decoratorArguments(schema), file);
  const options = objectLiteral(decoratorArguments(schema)[0], file.scopeOf);
  const collection = options && objectProperty(options, 'collection')?.value;
  for (const member of node.body.body) {
    if (member.type !== 'PropertyDefinition') continue;
    const field = keyName(member);
    for (const decorator of member.decorators ?? []) {
      if (decoratorName(decorator) !== 'Prop') continue;
      const args = decoratorArguments(decorator);
      if (!field || optionsUnsure(args, file)) {
        unsure = true;
        continue;
      }
      const props = objectLiteral(args[0], file.scopeOf);
      const index = props && objectLiteral(objectProperty(props, 'index')?.value, file.scopeOf);
      if (
        props &&
        (isTrue(objectProperty(props, 'unique')?.value) || (index && isTrue(objectProperty(index, 'unique')?.value)))
      ) {
        keys.push({ columns: [field], partial: false, written: `${className}.${field} (unique: true)` });
      } else if (
        props?.properties.some(
          (option) =>
            !(option.type === 'Property' && ['unique', 'index'].includes(keyName(option) ?? '')) &&
            mentionsUnique(option, file),
        )
      ) {
        unsure = true;
      }
    }
  }
  return {
    table: className,
    aliases: collection?.type === 'Literal' && typeof collection.value === 'string' ? [collection.value] : [],
    keys,
    ...(unsure ? { unsure } : {}),
  };
}

/** `['a', 'b']` or `'a'`: the columns a key call names. */
function columnList(node: TSESTree.Node | undefined): string[] {
  const one = staticString(node);
  return one !== undefined ? [one] : strings(node);
}

const knexIncrements = /^(increments|bigIncrements)$/;

/**
 * knex migrations: `knex.schema.createTable('refunds', (t) => { t.increments(); t.string('refund_id').unique();
 * t.unique(['a', 'b']); t.primary(['a']) })`, and `alterTable`/`table` adding keys to a table.
 */
export function knexMigrations(file: AdapterFile): DeclaredTable[] {
  const tables: DeclaredTable[] = [];
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return;
    const method = calleeName(node.callee);
    if (
      method !== 'createTable' &&
      method !== 'createTableIfNotExists' &&
      method !== 'alterTable' &&
      method !== 'table'
    )
      return;
    const table = staticString(node.arguments[0]);
    const builder = node.arguments[1];
    if (!table || !builder || (builder.type !== 'ArrowFunctionExpression' && builder.type !== 'FunctionExpression'))
      return;
    const param = builder.params[0];
    if (param?.type !== 'Identifier') return;
    const keys: DeclaredTable['keys'][number][] = [];
    walk(builder.body, file.visitorKeys, (inner) => {
      if (inner.type !== 'CallExpression' || inner.callee.type !== 'MemberExpression') return;
      const name = calleeName(inner.callee);
      const receiver = unwrapExpression(inner.callee.object);
      const onTable = receiver.type === 'Identifier' && receiver.name === param.name;
      if (onTable && (name === 'unique' || name === 'primary')) {
        const columns = columnList(inner.arguments[0]);
        const options = objectLiteral(inner.arguments[1], file.scopeOf);
        const partial = Boolean(options && objectProperty(options, 'predicate'));
        if (columns.length > 0)
          keys.push({ columns, partial, written: `${name}([${columns.join(', ')}]) on ${table}` });
      } else if (onTable && knexIncrements.test(name ?? '')) {
        const column = staticString(inner.arguments[0]) ?? 'id';
        keys.push({ columns: [column], partial: false, written: `the primary key ${column} of ${table}` });
      } else if (
        (name === 'unique' || name === 'primary') &&
        receiver.type === 'CallExpression' &&
        receiver.callee.type === 'MemberExpression'
      ) {
        // `t.string('refund_id').notNullable().unique()`: the column the chain starts with.
        let start: TSESTree.Node = receiver;
        while (
          start.type === 'CallExpression' &&
          start.callee.type === 'MemberExpression' &&
          unwrapExpression(start.callee.object).type === 'CallExpression'
        )
          start = unwrapExpression(start.callee.object);
        if (start.type !== 'CallExpression' || start.callee.type !== 'MemberExpression') return;
        const root = unwrapExpression(start.callee.object);
        const column = staticString(start.arguments[0]);
        if (root.type === 'Identifier' && root.name === param.name && column)
          keys.push({ columns: [column], partial: false, written: `${table}.${column} (${name})` });
      }
    });
    tables.push({
      table,
      keys,
      ...(method === 'createTable' || method === 'createTableIfNotExists' ? {} : { addition: true }),
    });
  });
  return tables;
}

/** A column definition's key options: `{ primaryKey: true }`, `{ unique: true }`, `{ unique: 'name' }` (a composite key by name). */
function sequelizeColumnKeys(
  definition: TSESTree.ObjectExpression | undefined,
  table: string,
  file: AdapterFile,
): DeclaredTable['keys'][number][] {
  if (!definition) return [];
  const primary: string[] = [];
  const named = new Map<string, string[]>();
  const keys: DeclaredTable['keys'][number][] = [];
  for (const property of definition.properties) {
    if (property.type !== 'Property') continue;
    const column = keyName(property);
    const options = objectLiteral(property.value, file.scopeOf);
    if (!column || !options) continue;
    if (isTrue(objectProperty(options, 'primaryKey')?.value)) primary.push(column);
    const unique = objectProperty(options, 'unique')?.value;
    const uniqueName =
      staticString(unique) ??
      (objectLiteral(unique, file.scopeOf) &&
        staticString(objectProperty(objectLiteral(unique, file.scopeOf)!, 'name')?.value));
    if (isTrue(unique)) keys.push({ columns: [column], partial: false, written: `${table}.${column} (unique)` });
    else if (uniqueName) named.set(uniqueName, [...(named.get(uniqueName) ?? []), column]);
  }
  if (primary.length > 0)
    keys.push({ columns: primary, partial: false, written: `the primary key (${primary.join(', ')}) of ${table}` });
  for (const [name, columns] of named)
    keys.push({ columns, partial: false, written: `unique ${name} (${columns.join(', ')}) on ${table}` });
  return keys;
}

/** `{ unique: true, fields: [...] , where }` in `indexes: [...]` or `uniqueKeys: { name: { fields } }`. */
function sequelizeOptionKeys(
  options: TSESTree.ObjectExpression | undefined,
  table: string,
  file: AdapterFile,
): DeclaredTable['keys'][number][] {
  if (!options) return [];
  const keys: DeclaredTable['keys'][number][] = [];
  const indexes = objectProperty(options, 'indexes')?.value;
  if (indexes?.type === 'ArrayExpression') {
    for (const element of indexes.elements) {
      const index = element && element.type !== 'SpreadElement' ? objectLiteral(element, file.scopeOf) : undefined;
      if (!index || !isTrue(objectProperty(index, 'unique')?.value)) continue;
      const columns = strings(objectProperty(index, 'fields')?.value);
      if (columns.length > 0)
        keys.push({
          columns,
          partial: Boolean(objectProperty(index, 'where')),
          written: `a unique index (${columns.join(', ')}) on ${table}`,
        });
    }
  }
  const uniqueKeys = objectLiteral(objectProperty(options, 'uniqueKeys')?.value, file.scopeOf);
  for (const property of uniqueKeys?.properties ?? []) {
    const key = property.type === 'Property' ? objectLiteral(property.value, file.scopeOf) : undefined;
    const columns = strings(key && objectProperty(key, 'fields')?.value);
    if (columns.length > 0)
      keys.push({
        columns,
        partial: false,
        written: `unique ${keyName(property as TSESTree.Property) ?? ''} (${columns.join(', ')}) on ${table}`,
      });
  }
  return keys;
}

/**
 * Sequelize: migrations (`queryInterface.createTable('Refunds', { … }, { uniqueKeys })`,
 * `addIndex('Refunds', ['a', 'b'], { unique: true })`, `addConstraint('Refunds', { fields, type: 'unique' })`)
 * and models (`Refund.init({ … }, { tableName, indexes })`, `sequelize.define('Refund', { … }, { indexes })`).
 */
export function sequelizeDeclarations(file: AdapterFile): DeclaredTable[] {
  const tables: DeclaredTable[] = [];
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if (node.type !== 'CallExpression' || node.callee.type !== 'MemberExpression') return;
    const method = calleeName(node.callee);
    const [first, second, third] = node.arguments;
    if (method === 'createTable') {
      const table = staticString(first);
      const columns = objectLiteral(second, file.scopeOf);
      if (!table || !columns) return;
      tables.push({
        table,
        keys: [
          ...sequelizeColumnKeys(columns, table, file),
          ...sequelizeOptionKeys(objectLiteral(third, file.scopeOf), table, file),
        ],
      });
    } else if (method === 'addIndex' || method === 'addConstraint') {
      const table = staticString(first);
      if (!table) return;
      // addIndex(table, ['a'], { unique: true }), addIndex(table, { fields, unique: true }), addConstraint(table, { fields, type: 'unique' }).
      const options = objectLiteral(second?.type === 'ArrayExpression' ? third : second, file.scopeOf);
      const columns =
        second?.type === 'ArrayExpression'
          ? strings(second)
          : strings(options && objectProperty(options, 'fields')?.value);
      const type = options && staticString(objectProperty(options, 'type')?.value)?.toLowerCase();
      const unique =
        options && (isTrue(objectProperty(options, 'unique')?.value) || type === 'unique' || type === 'primary key');
      if (!unique || columns.length === 0) return;
      tables.push({
        table,
        keys: [
          {
            columns,
            partial: Boolean(objectProperty(options, 'where')),
            written: `${method}(${table}, [${columns.join(', ')}])`,
          },
        ],
        addition: true,
      });
    } else if (method === 'init' || method === 'define') {
      // Model.init(attributes, options) names its model by the class; define(name, attributes, options) by its first argument.
      const attributes = objectLiteral(method === 'init' ? first : second, file.scopeOf);
      const options = objectLiteral(method === 'init' ? second : third, file.scopeOf);
      const model =
        method === 'init'
          ? node.callee.object.type === 'Identifier'
            ? node.callee.object.name
            : undefined
          : staticString(first);
      // init needs its options (they name the connection); define's are optional.
      if (!attributes || !model || (method === 'init' && !(options && objectProperty(options, 'sequelize')))) return;
      const tableName = options && staticString(objectProperty(options, 'tableName')?.value);
      const keys = [...sequelizeColumnKeys(attributes, model, file), ...sequelizeOptionKeys(options, model, file)];
      // A model declares only the keys it knows of; its table's migrations may add others.
      tables.push({ table: model, aliases: tableName ? [tableName] : [], keys, addition: true });
    }
  });
  return tables;
}
