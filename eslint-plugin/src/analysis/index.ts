/**
 * The analysis as adapters see it: the contract they fill in, and the small readers of syntax,
 * written fields, query chains and SQL they recognise a library's calls with. Adapters import from
 * here only; the rest of the analysis is free to move.
 */
export type * from './contract/adapter.js';
export type * from './contract/providers.js';
export * from './contract/operation.js';
export type * from './contract/schema.js';
export { LibraryTable } from './context/library-table.js';
export { chainOf, isChainEnd, link, literalArgument, type Chain, type ChainLink } from './operations/chain.js';
export { fieldsOf, matchedFields, objectLiteral, showsEveryField, uniqueKeyFields } from './operations/fields.js';
export { sqlOperations } from './operations/sql.js';
export { declaresDependency } from './project/modules.js';
export { uniqueKeysInSql } from './sql/ddl.js';
export type { SqlCalls } from './sql/embedded.js';
export * from './syntax/nodes.js';
export { constantInitializer, variableOf } from './syntax/scope.js';
export { staticText, type ScopeOf } from './syntax/static-text.js';
export { walk } from './syntax/walk.js';
