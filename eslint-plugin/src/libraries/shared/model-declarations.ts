import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../../analysis/file-context.js';
import { objectLiteral } from '../../analysis/operations/fields.js';
import type { DeclaredTable } from '../../analysis/schema/model.js';
import { calleeName, keyName, objectProperty, unwrapExpression } from '../../analysis/scope.js';
import { walk } from '../../analysis/walk.js';

/**
 * Unique keys declared in model code rather than in schema files: TypeORM entity decorators and
 * Mongoose schemas. Read from the project's modules (parsed, never run).
 */

function decoratorName(decorator: TSESTree.Decorator): string | undefined {
  const expression = decorator.expression;
  return expression.type === 'CallExpression' ? calleeName(expression.callee) : expression.type === 'Identifier' ? expression.name : undefined;
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
  return list.elements.flatMap((element) => (element?.type === 'Literal' && typeof element.value === 'string' ? [element.value] : []));
}

function optionTrue(options: TSESTree.Node | undefined, name: string, file: FileContext): boolean {
  const object = objectLiteral(options, file.scopeOf);
  return Boolean(object && isTrue(objectProperty(object, name)?.value));
}

/** `@Entity('refunds') class Refund { @PrimaryColumn() id; @Column({ unique: true }) refundId; }`, `@Unique([…])`, `@Index([…], { unique: true })`. */
export function typeormEntities(file: FileContext): DeclaredTable[] {
  const tables: DeclaredTable[] = [];
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if ((node.type !== 'ClassDeclaration' && node.type !== 'ClassExpression') || !node.id) return;
    const decorators = node.decorators ?? [];
    const entity = decorators.find((decorator) => decoratorName(decorator) === 'Entity');
    if (!entity) return;
    const className = node.id.name;
    const [first] = decoratorArguments(entity);
    const named = first?.type === 'Literal' && typeof first.value === 'string' ? first.value : objectLiteral(first, file.scopeOf) && (objectProperty(objectLiteral(first, file.scopeOf)!, 'name')?.value as TSESTree.Literal | undefined)?.value;
    const keys: { columns: string[]; partial: boolean; written: string }[] = [];
    const primary: string[] = [];
    for (const decorator of decorators) {
      const name = decoratorName(decorator);
      const args = decoratorArguments(decorator);
      if (name === 'Unique') {
        const columns = strings(args[args.length - 1]);
        if (columns.length > 0) keys.push({ columns, partial: false, written: `@Unique([${columns.join(', ')}]) on ${className}` });
      } else if (name === 'Index' && optionTrue(args[args.length - 1], 'unique', file)) {
        const columns = strings(args.find((argument) => argument.type === 'ArrayExpression'));
        const partial = Boolean(objectLiteral(args[args.length - 1], file.scopeOf) && objectProperty(objectLiteral(args[args.length - 1], file.scopeOf)!, 'where'));
        if (columns.length > 0) keys.push({ columns, partial, written: `@Index([${columns.join(', ')}], { unique: true }) on ${className}` });
      }
    }
    for (const member of node.body.body) {
      if (member.type !== 'PropertyDefinition') continue;
      const field = keyName(member);
      if (!field) continue;
      for (const decorator of member.decorators ?? []) {
        const name = decoratorName(decorator);
        const [options] = decoratorArguments(decorator).slice(-1);
        if (name === 'PrimaryColumn' || name === 'PrimaryGeneratedColumn') primary.push(field);
        else if ((name === 'Column' || name === 'Index') && optionTrue(options, 'unique', file)) keys.push({ columns: [field], partial: false, written: `${className}.${field} (unique)` });
        else if (name === 'Column' && optionTrue(options, 'primary', file)) primary.push(field);
      }
    }
    if (primary.length > 0) keys.push({ columns: primary, partial: false, written: `the primary key (${primary.join(', ')}) of ${className}` });
    tables.push({ table: className, aliases: typeof named === 'string' ? [named] : [], keys });
  });
  return tables;
}

/** The fields of a schema definition declared `unique: true` (or `index: { unique: true }`). */
function uniqueFields(definition: TSESTree.ObjectExpression, file: FileContext): string[] {
  const fields: string[] = [];
  for (const property of definition.properties) {
    if (property.type !== 'Property') continue;
    const name = keyName(property);
    const options = objectLiteral(property.value, file.scopeOf);
    if (!name || !options) continue;
    const index = objectLiteral(objectProperty(options, 'index')?.value, file.scopeOf);
    if (isTrue(objectProperty(options, 'unique')?.value) || (index && isTrue(objectProperty(index, 'unique')?.value))) fields.push(name);
  }
  return fields;
}

/**
 * `const tenantSchema = new Schema({ email: { type: String, unique: true } })`,
 * `tenantSchema.index({ a: 1, b: 1 }, { unique: true })`, `model('Tenant', tenantSchema)`.
 */
export function mongooseSchemas(file: FileContext): DeclaredTable[] {
  const bySchema = new Map<string, { keys: DeclaredTable['keys'][number][]; models: string[] }>();
  const entry = (name: string) => {
    let found = bySchema.get(name);
    if (!found) bySchema.set(name, (found = { keys: [], models: [] }));
    return found;
  };
  walk(file.sourceAst, file.visitorKeys, (node) => {
    if (node.type === 'VariableDeclarator' && node.id.type === 'Identifier' && node.init) {
      const init = unwrapExpression(node.init);
      if ((init.type === 'NewExpression' || init.type === 'CallExpression') && calleeName(init.callee) === 'Schema') {
        const definition = objectLiteral(init.arguments[0], file.scopeOf);
        const target = entry(node.id.name);
        for (const field of definition ? uniqueFields(definition, file) : []) target.keys.push({ columns: [field], partial: false, written: `${field} (unique: true)` });
      }
    }
    if (node.type !== 'CallExpression') return;
    const method = calleeName(node.callee);
    const receiver = node.callee.type === 'MemberExpression' && node.callee.object.type === 'Identifier' ? node.callee.object.name : undefined;
    if (method === 'index' && receiver && optionTrue(node.arguments[1], 'unique', file)) {
      const fields = objectLiteral(node.arguments[0], file.scopeOf);
      const columns = fields ? fields.properties.flatMap((property) => (property.type === 'Property' && keyName(property) ? [keyName(property)!] : [])) : [];
      const partial = Boolean(objectLiteral(node.arguments[1], file.scopeOf) && objectProperty(objectLiteral(node.arguments[1], file.scopeOf)!, 'partialFilterExpression'));
      if (columns.length > 0) entry(receiver).keys.push({ columns, partial, written: `${receiver}.index({ ${columns.join(', ')} }, { unique: true })` });
    }
    if (method === 'model' && node.arguments[0]?.type === 'Literal' && typeof node.arguments[0].value === 'string' && node.arguments[1]?.type === 'Identifier') {
      entry(node.arguments[1].name).models.push(node.arguments[0].value);
    }
  });
  return [...bySchema].flatMap(([schema, { keys, models }]) => {
    // `TenantSchema` without a model call in this file is still named after its model.
    const names = models.length > 0 ? models : [schema.replace(/Schema$/i, '')];
    return keys.length > 0 ? names.map((name) => ({ table: name, keys })) : [];
  });
}
