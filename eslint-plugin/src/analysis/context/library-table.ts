import type {
  BrokerAdapter,
  CollectionSpec,
  DdlCall,
  RequestSpec,
  DataAdapter,
  HandlerPattern,
  KeyPathPattern,
  LibraryAdapter,
  LibraryName,
  MemberSpec,
  ModelFiles,
  ProviderAdapter,
  ResultPattern,
  SchemaFiles,
  ShapeId,
  ShapeSpec,
  TypePattern,
  ValueAdapter,
} from '../contract/adapter.js';
import type { ProviderCallSpec, ProviderKeyField, ProviderSpec } from '../contract/providers.js';
import type { FileImports } from '../syntax/imports.js';
import { NameJudge } from '../naming/names.js';

/**
 * The adapters, indexed for the questions the analysis asks on every node: which handlers a
 * property key, a method or a decorator registers, which shape a member has, which adapters may
 * recognise a method name. Built once per set of adapters (the defaults, or the defaults plus a
 * team's settings) and shared by every file linted with it.
 */

type Indexed<Pattern> = { adapter: BrokerAdapter; pattern: Pattern };
type HandlerOf<Key extends string> = Extract<HandlerPattern, Record<Key, unknown>>;

function push<Key, Value>(map: Map<Key, Value[]>, key: Key, value: Value): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Is `source` (a module specifier, or a package's name) one of `modules`? */
export function matchesModule(source: string, modules: readonly (string | RegExp)[] | undefined): boolean {
  return (modules ?? []).some((module) => (typeof module === 'string' ? module === source : module.test(source)));
}

let tables = 0;

export class LibraryTable {
  /** Tells tables apart in caches shared by the whole process. */
  readonly id = (tables += 1);
  readonly adapters: readonly LibraryAdapter[];
  readonly brokers: readonly BrokerAdapter[];
  private readonly shapes = new Map<ShapeId, ShapeSpec>();
  readonly byProperty = new Map<string, Indexed<HandlerOf<'property'>>[]>();
  readonly byCall = new Map<string, Indexed<HandlerOf<'call'>>[]>();
  readonly byConstruct = new Map<string, Indexed<HandlerOf<'construct'>>[]>();
  readonly byDecorator = new Map<string, Indexed<HandlerOf<'decorators'>>[]>();
  readonly byClassDecorator = new Map<string, Indexed<HandlerOf<'classDecorator'>>[]>();
  readonly byHandlerType = new Map<string, Indexed<HandlerOf<'handlerType'>>[]>();
  readonly byType = new Map<string, Indexed<TypePattern>[]>();
  readonly results = new Map<string, ResultPattern[]>();
  /** The adapter each result pattern belongs to, for its evidence. */
  readonly resultOwners = new Map<ResultPattern, BrokerAdapter>();
  /** Headers set by a delivery service on the requests it makes, by lower-case name. */
  readonly requestHeaders = new Map<string, Indexed<MemberSpec>[]>();
  /** Options that name a key by a path, by option name. */
  readonly keyPaths = new Map<string, Indexed<KeyPathPattern>[]>();
  readonly sendMethods = new Set<string>();
  readonly sendReceiverMethods = new Map<string, RegExp[]>();
  readonly sendCommands: RegExp[] = [];
  /** Methods some library's own values send by (`queue.push` on a `new Queue(worker)`): asked of the value's maker. */
  readonly instanceSendMethods = new Set<string>();
  readonly acknowledges = new Set<string>();
  readonly nameWords = new Set<string>();
  readonly deliveryNames: NonNullable<BrokerAdapter['deliveryNames']>[] = [];
  readonly namedHandlers: NonNullable<BrokerAdapter['namedHandlers']>[number][] = [];

  private readonly dataByMethod = new Map<string, DataAdapter[]>();
  private readonly dataForAnyMethod: DataAdapter[] = [];
  private readonly dataByName = new Map<LibraryName, DataAdapter>();
  /** Every method name some data adapter recognises: the first, cheapest question about a call. */
  readonly dataMethods = new Set<string>();
  /** The readers of schema files, one per data library that has them. */
  readonly schemaReaders: SchemaFiles[] = [];
  /** The readers of models declared in code. */
  readonly modelReaders: ModelFiles[] = [];
  /** Calls by which migration code sends DDL as text. */
  readonly ddlCalls: DdlCall[] = [];
  /** Schema files and folders named in settings, relative to the working directory. */
  readonly schemaPaths: string[] = [];

  readonly mintingCalls = new Map<string, string>();
  readonly mintingPaths = new Map<string, string>();
  readonly mintingFactories = new Map<string, string>();
  readonly mintingConstructors = new Map<string, string>();
  readonly workerPaths = new Map<string, string>();
  /** The first names of `workerPaths` (`os`, `process`): a member chain starting elsewhere is not looked up. */
  readonly workerRoots = new Set<string>();
  readonly workerVariables: RegExp[] = [];
  readonly deriving: RegExp[] = [];
  readonly parsing = new Set<string>();
  /** Collections kept in a process's memory, by the class that makes them; literals by their kind. */
  readonly collectionsByClass = new Map<string, CollectionSpec[]>();
  private readonly browserModules: (string | RegExp)[] = [];
  /** Decorators of commands an operator runs by hand. */
  readonly commandDecorators = new Set<string>();
  /** Frameworks' import aliases (`$lib`), by the files that mark a project of theirs. */
  readonly importAliases: NonNullable<ValueAdapter['importAliases']>[number][] = [];
  readonly literalCollections = new Map<'array' | 'object', CollectionSpec>();
  /** Every lookup and record method of those collections: the cheap first question about a call. */
  readonly collectionMethods = new Set<string>();
  /** Calls that send requests to other systems, by the function's name. */
  readonly requests = new Map<string, RequestSpec>();
  /** Request methods a client names its own methods after (`POST` for `axios.post`), upper case. */
  readonly requestVerbs = new Set<string>();
  /** Provider calls that move money or send, by the last name of their path (`create` of `refunds.create`). */
  readonly providerCalls = new Map<string, { provider: ProviderSpec; call: ProviderCallSpec }[]>();
  /** Providers' idempotency fields of request bodies, by lower-case name. */
  readonly providerKeyFields = new Map<string, ProviderKeyField[]>();
  /** Matches the text of a `catch` that treats a unique-key violation as the duplicate. */
  readonly uniqueViolation: RegExp;
  /** What names mean, with the transport words of these libraries. */
  readonly names: NameJudge;

  constructor(adapters: readonly LibraryAdapter[]) {
    this.adapters = adapters;
    this.brokers = adapters.filter((adapter): adapter is BrokerAdapter => adapter.kind === 'broker');
    const violations: string[] = [];
    for (const adapter of adapters) {
      if (adapter.kind === 'broker') this.addBroker(adapter);
      else if (adapter.kind === 'values') this.addValues(adapter);
      else if (adapter.kind === 'providers') this.addProviders(adapter);
      else {
        this.dataByName.set(adapter.name, adapter);
        violations.push(...(adapter.uniqueViolations ?? []));
        if (adapter.schema) this.schemaReaders.push(adapter.schema);
        if (adapter.models) this.modelReaders.push(adapter.models);
        this.ddlCalls.push(...(adapter.ddlCalls ?? []));
        if (adapter.methods === 'any') this.dataForAnyMethod.push(adapter);
        else
          for (const method of adapter.methods) {
            push(this.dataByMethod, method, adapter);
            this.dataMethods.add(method);
          }
      }
    }
    // Those that recognise any call (SQL text) are asked first, then those that know the method.
    for (const [method, named] of this.dataByMethod)
      this.dataByMethod.set(method, [...this.dataForAnyMethod, ...named]);
    const escaped = [...new Set(violations)].map((text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
    this.names = new NameJudge(this.nameWords);
    this.uniqueViolation = escaped.length > 0 ? new RegExp(escaped.join('|'), 'i') : /$^/;
  }

  private addProviders(adapter: ProviderAdapter): void {
    for (const provider of adapter.providers) {
      for (const call of provider.calls)
        push(this.providerCalls, call.path.slice(call.path.lastIndexOf('.') + 1), { provider, call });
      for (const field of provider.keyFields ?? []) push(this.providerKeyFields, field.name.toLowerCase(), field);
    }
  }

  private addBroker(adapter: BrokerAdapter): void {
    for (const [local, spec] of Object.entries(adapter.shapes ?? {})) this.shapes.set(`${adapter.name}:${local}`, spec);
    for (const pattern of adapter.handlers ?? []) {
      if ('property' in pattern) push(this.byProperty, pattern.property, { adapter, pattern });
      else if ('call' in pattern) push(this.byCall, pattern.call, { adapter, pattern });
      else if ('construct' in pattern) push(this.byConstruct, pattern.construct, { adapter, pattern });
      else if ('decorators' in pattern)
        for (const name of pattern.decorators) push(this.byDecorator, name, { adapter, pattern });
      else if ('classDecorator' in pattern) push(this.byClassDecorator, pattern.classDecorator, { adapter, pattern });
      else push(this.byHandlerType, pattern.handlerType, { adapter, pattern });
    }
    for (const pattern of adapter.types ?? []) push(this.byType, pattern.type, { adapter, pattern });
    for (const pattern of adapter.results ?? []) {
      push(this.results, pattern.call, pattern);
      this.resultOwners.set(pattern, adapter);
    }
    for (const [name, pattern] of Object.entries(adapter.requestHeaders ?? {}))
      push(this.requestHeaders, name.toLowerCase(), { adapter, pattern });
    for (const pattern of adapter.keyPaths ?? []) push(this.keyPaths, pattern.option, { adapter, pattern });
    for (const method of adapter.sends?.methods ?? []) this.sendMethods.add(method);
    for (const { method, receiver } of adapter.sends?.receiverMethods ?? [])
      push(this.sendReceiverMethods, method, receiver);
    if (adapter.sends?.commands) this.sendCommands.push(adapter.sends.commands);
    for (const method of adapter.sends?.instanceMethods ?? []) this.instanceSendMethods.add(method);
    for (const method of adapter.acknowledges ?? []) this.acknowledges.add(method);
    for (const word of adapter.nameWords ?? []) this.nameWords.add(word);
    if (adapter.deliveryNames) this.deliveryNames.push(adapter.deliveryNames);
    this.namedHandlers.push(...(adapter.namedHandlers ?? []));
  }

  private addValues(adapter: ValueAdapter): void {
    for (const [name, what] of Object.entries(adapter.mintingCalls ?? {})) this.mintingCalls.set(name, what);
    for (const [path, what] of Object.entries(adapter.mintingPaths ?? {})) this.mintingPaths.set(path, what);
    for (const [name, what] of Object.entries(adapter.mintingFactories ?? {})) this.mintingFactories.set(name, what);
    for (const [name, what] of Object.entries(adapter.mintingConstructors ?? {}))
      this.mintingConstructors.set(name, what);
    for (const [path, what] of Object.entries(adapter.workerPaths ?? {})) {
      this.workerPaths.set(path, what);
      this.workerRoots.add(path.split('.')[0]);
    }
    if (adapter.workerVariables) this.workerVariables.push(adapter.workerVariables);
    if (adapter.deriving) this.deriving.push(adapter.deriving);
    for (const path of adapter.parsing ?? []) this.parsing.add(path);
    this.schemaPaths.push(...(adapter.schemaPaths ?? []));
    this.browserModules.push(...(adapter.browserModules ?? []));
    for (const name of adapter.commandDecorators ?? []) this.commandDecorators.add(name);
    this.importAliases.push(...(adapter.importAliases ?? []));
    for (const spec of adapter.collections ?? []) {
      if (spec.construct) push(this.collectionsByClass, spec.construct, spec);
      else if (spec.literal) this.literalCollections.set(spec.literal, spec);
      for (const method of [...spec.lookups, ...spec.records]) this.collectionMethods.add(method);
    }
    for (const spec of adapter.requests ?? []) {
      this.requests.set(spec.call, spec);
      if (spec.verbs) for (const method of spec.writing) this.requestVerbs.add(method);
    }
  }

  shape(id: ShapeId): ShapeSpec | undefined {
    return this.shapes.get(id);
  }

  /** The data adapters that may recognise a call of `method` (undefined: a tagged template), in registration order. */
  dataAdaptersFor(method: string | undefined): readonly DataAdapter[] {
    return (method !== undefined && this.dataByMethod.get(method)) || this.dataForAnyMethod;
  }

  dataAdapter(name: LibraryName): DataAdapter | undefined {
    return this.dataByName.get(name);
  }

  /** Does the file import one of the adapter's modules? */
  imported(adapter: LibraryAdapter, imports: FileImports): boolean {
    const modules = 'modules' in adapter ? adapter.modules : undefined;
    for (const source of imports.sources) if (matchesModule(source, modules)) return true;
    return false;
  }

  /** Does the file import a module only browser code imports (a UI framework)? */
  runsInBrowser(imports: FileImports): boolean {
    for (const source of imports.sources) if (matchesModule(source, this.browserModules)) return true;
    return false;
  }

  /** The adapter a module specifier belongs to. */
  adapterOfModule(source: string): LibraryAdapter | undefined {
    return this.adapters.find((adapter) => 'modules' in adapter && matchesModule(source, adapter.modules));
  }

  isDerivingCall(name: string): boolean {
    return this.deriving.some((pattern) => pattern.test(name));
  }

  isWorkerVariable(name: string): boolean {
    return this.workerVariables.some((pattern) => pattern.test(name));
  }
}
