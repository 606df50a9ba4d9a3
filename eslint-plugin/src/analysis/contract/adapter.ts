import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import type { FileImports } from '../syntax/imports.js';
import type { NameJudge } from '../naming/names.js';
import type { DeclaredTable, UniqueViolationCheck } from './schema.js';
import type { DataOperation } from './operation.js';
import type { ProviderSpec } from './providers.js';

/** What an adapter says of a library: knowledge only, read through `LibraryTable`, which names no library. */

/** An adapter's name: unique in the registry (libraries/index.ts), and the prefix of its shapes' ids. */
export type LibraryName = string;

export type LeafKind =
  | 'delivery' // assigned to this delivery by the broker: a message id, an offset, a receipt handle
  | 'minted' // new each time the code runs: a random id, the clock
  | 'worker' // the worker handling it: a worker id, the host name, the pid
  | 'amount'
  | 'currency'
  | 'time'
  | 'scope' // who the operation belongs to: an account, a customer, a tenant
  | 'business' // the business operation or record: a refund, a sale, an invoice
  | 'constant'
  | 'unknown';

/**
 * What an adapter reads of the file it recognises code in. The analysis's file context provides it;
 * the contract names only what adapters use, so it depends on nothing above it.
 */
export interface AdapterFile {
  readonly filename: string;
  readonly imports: FileImports;
  readonly libraries: AdapterTable;
  readonly sourceAst: TSESTree.Program;
  readonly visitorKeys: TSESLint.SourceCode.VisitorKeys;
  readonly scopeOf: (node: TSESTree.Node) => TSESLint.Scope.Scope;
  readonly text: (node: TSESTree.Node) => string;
  /** The source of a node as messages quote it. */
  readonly code: (node: TSESTree.Node) => string;
  /** What the project module this file imports `local` from exports under that name (`new Redis()`), with that module's imports. */
  importedValue(local: string): { value: TSESTree.Node; imports: FileImports } | undefined;
}

/** What an adapter may ask of the table of every adapter in use. */
export interface AdapterTable {
  readonly names: NameJudge;
  dataAdapter(name: LibraryName): DataAdapter | undefined;
  /** The file imports one of the adapter's modules. */
  imported(adapter: LibraryAdapter, imports: FileImports): boolean;
}

/**
 * A shape names a kind of value whose members are known. `payload`, `body` and `headers` are the
 * analysis's own (content judged by names); every other shape is `<library>:<local name>`.
 */
export type ShapeId = 'payload' | 'body' | 'headers' | `${LibraryName}:${string}`;

/** What a member of a shaped value holds. */
export type MemberSpec =
  /** An identity the broker assigns to this delivery, described for messages: "the Kafka offset". */
  | { identity: string }
  /** Another shaped value. */
  | { shape: ShapeId }
  /** A list whose elements have a shape; `confirms`: a member only this platform has (`Records`) confirms a guessed shape. */
  | { listOf: ShapeId; confirms?: true }
  /** A plain value of a known kind: a producer-set dedupe id is `business`, a group id `scope`. */
  | { kind: LeafKind };

export interface ShapeSpec {
  members?: Readonly<Record<string, MemberSpec>>;
  /** `value.method()` results: a Nest context's `getMessage()`, an SDK v2 request's `promise()`. */
  methods?: Readonly<Record<string, MemberSpec>>;
  /** Elements by position (`[id, fields]` of a stream entry); `elements` for any other index. */
  positions?: readonly MemberSpec[];
  elements?: MemberSpec;
  /** Members not listed above: read from another shape's table (a broker's common members), then by name. */
  inherits?: ShapeId;
  /** An unlisted member is judged by its name, else is the content (`payload`, the default) or unknown; `opaque`: unknown. */
  otherMembers?: 'payload' | 'unknown' | 'opaque';
  /** A handler given a value of this shape is an entry point of its own kind, not the adapter's (a runner's scheduled task is a `cron`). */
  entry?: { label: string; kind: EntryKind };
}

/** Further evidence a registration needs; any one of the given kinds suffices. */
export interface Evidence {
  /** The file imports one of the adapter's modules. */
  imports?: boolean;
  /** The receiver of the call reads so (`boss.work`). */
  receiver?: RegExp;
  /** The handler's parameter is named so (`job`). */
  parameterName?: RegExp;
}

/** A handler shape for parameter `parameter` (0 unless said): a shape, or a list of it. */
export interface HandlerTarget {
  parameter?: number;
  shape: ShapeId;
  /** The parameter is a list of `shape` (a batch handler). */
  list?: boolean;
  /** A list when the parameter is an array pattern or has a plural name, one item otherwise. */
  listWhenPlural?: boolean;
  evidence?: Evidence;
  /**
   * For a `property` pattern: the object holding the property is an argument of a call to a
   * method of this name (`subscribe({ processMessage })`); evidence then reads that call's receiver.
   */
  inCall?: string;
}

/** How a function becomes a handler of deliveries. */
export type HandlerPattern =
  /** `{ eachMessage: fn }`: the value of a property with this key. */
  | (HandlerTarget & { property: string })
  /**
   * `channel.consume(queue, fn)`: an argument at `argument` or later of a call to a method of this
   * name; `exactly` at `argument`, where a later one is another callback (`new CronJob(expr, onTick, onComplete)`).
   */
  | (HandlerTarget & { call: string; argument: number; exactly?: boolean; event?: string })
  /** `new Worker(name, fn)`. */
  | (HandlerTarget & { construct: string; argument: number; exactly?: boolean })
  /** A method decorated so: parameters by their own decorators, then by position. */
  | {
      decorators: readonly string[];
      byParameterDecorator?: Readonly<Record<string, ShapeId>>;
      byPosition: readonly (ShapeId | undefined)[];
      /** Further evidence the decorator is this library's (`@Cron` of a file that imports @nestjs/schedule). */
      evidence?: Evidence;
      /** The entry point a decorated method is, when its parameters say nothing (`@Cron() sweep()`). */
      shape?: ShapeId;
    }
  /** A method of a class decorated `classDecorator`, named `method`. */
  | (HandlerTarget & { classDecorator: string; method: string })
  /** `export const handler: SQSHandler = async (event) => …`: the variable's declared type. */
  | (HandlerTarget & { handlerType: string });

/** A parameter or variable type that says what a value is: `KafkaMessage`, or `Message` imported from amqplib. */
export interface TypePattern {
  type: string;
  shape: ShapeId;
  /** The type counts only when imported from one of these modules. */
  from?: readonly string[];
}

/** A call whose result has a shape: `sqs.receiveMessage(…)`, `client.send(new ReceiveMessageCommand(…))`. */
export interface ResultPattern {
  call: string;
  /** The call's first argument constructs this class. */
  construct?: string;
  /** The call's receiver reads so (`Context.current()`): required, unlike evidence. */
  receiver?: RegExp;
  /** Further evidence the call is this library's (a method name other libraries share). */
  evidence?: Evidence;
  shape: ShapeId;
}

/**
 * A broker that drops a second send of the same operation when the producer names it (BullMQ's
 * `jobId`, SQS FIFO's `MessageDeduplicationId`): the consumer's repeats of one operation are the
 * broker's to settle when every send to its queue in the project sets the option.
 */
export interface ProducerDedupe {
  /** Where a registration names the queue it reads: an argument of the registering call, a property beside the
   * handler, or the first argument of the handler class's decorator. */
  queue: readonly ({ argument: number } | { property: string } | { classDecorator: string })[];
  sends: readonly DedupeSend[];
}

export type DedupeSend =
  /** `new Queue(name).add(job, data, { jobId })`, or a field injected as `@InjectQueue(name)`: the queue named by the
   * construct's first argument or the decorator's, the option in an argument of the method. */
  | { construct: string; decorator?: string; method: string; optionsArgument: number | 'last'; option: string }
  /** A request body naming the queue in one field and the dedupe option in another: `{ QueueUrl, MessageDeduplicationId }`. */
  | { queueField: string; option: string };

/**
 * An option whose value is a path into the event a handler is given, naming the key that decides
 * duplicates (`{ keyPath: 'body.orderId' }` to `new DedupeConfig(…)`), judged against `root`.
 */
export interface KeyPathPattern {
  /** The class whose options object holds the option. */
  construct: string;
  option: string;
  /** What the path is read against. */
  root: ShapeId;
  /** Functions of the path language that parse a member into content (`parse_json(body)`). */
  parsing?: readonly string[];
  /** How messages name the key: "the idempotency key". */
  label: string;
  /** Functions given the options that key what their function is called with (`makeIdempotent(fn, { config })`):
   * where the module calls what they return, the path is read against its first argument, not `root`. */
  wrappers?: readonly string[];
}

/** How messages are sent: an object built inside such a call is an outgoing message, not an effect's options. */
export interface SendPatterns {
  /** Methods that send whatever their receiver is (`sendToQueue`). */
  methods?: readonly string[];
  /** Methods that send when the receiver reads so (`producer.send`). */
  receiverMethods?: readonly { method: string; receiver: RegExp }[];
  /** SDK commands that send (`SendMessageCommand`). */
  commands?: RegExp;
  /** Methods that hand work to a value the library makes (`new Queue(worker)`, `fastq(worker)`): `queue.push(task)`. */
  instanceMethods?: readonly string[];
}

/**
 * What runs an entry point again: a broker's redelivery (`consumer`), a sender's retry (`webhook`),
 * a job runner's retry (`job`), or a schedule (`cron`), whose runs overlap and whose instances each fire.
 */
export type EntryKind = 'consumer' | 'webhook' | 'job' | 'cron';
export interface BrokerAdapter {
  kind: 'broker';
  name: LibraryName;
  /** Module specifiers the library is imported from, as written or by pattern. */
  modules: readonly (string | RegExp)[];
  shapes?: Readonly<Record<string, ShapeSpec>>;
  handlers?: readonly HandlerPattern[];
  types?: readonly TypePattern[];
  results?: readonly ResultPattern[];
  sends?: SendPatterns;
  /** Methods that acknowledge or settle a delivery (`ack`, `commitOffsets`). */
  acknowledges?: readonly string[];
  /** Words that, inside a name, mark transport rather than content (`kafkaOffset`). */
  nameWords?: readonly string[];
  /** The last resort: parameter names that hold a delivery (`message`), or a list of them (`messages`). */
  deliveryNames?: { one: RegExp; many: RegExp; shape: ShapeId };
  /** Named handlers whose first parameter of this name is a shape: the `event` of a function called `handler`. */
  namedHandlers?: readonly { functionName: string; parameterName: string; shape: ShapeId }[];
  /**
   * Headers a delivery service sets on the HTTP requests it makes to a handler, by lower-case
   * name: `headers.get(name)`, `headers[name]` and `req.header(name)` read them in files that
   * import one of the adapter's modules, themselves or through a project module they import.
   */
  requestHeaders?: Readonly<Record<string, MemberSpec>>;
  /** Options naming, by a path into the event, the key that decides duplicates. */
  keyPaths?: readonly KeyPathPattern[];
  /** How a producer asks the broker to drop a second send of one operation, and how a consumer names its queue. */
  producerDedupe?: ProducerDedupe;
  /** How messages name a function that handles its deliveries: "Kafka consumer", "Stripe webhook". */
  entry?: string;
  /** What runs such a function, for a map of entry points: a broker (`consumer`, when not said), a `webhook`, a `job` runner, a `cron`. */
  entryKind?: EntryKind;
  /** The runner holds each delivery to one run at a time, retrying it only after a try has ended: a second pass finds what the first wrote. */
  oneRunAtATime?: true;
}

/**
 * How a data library's writes carry their keys. `columns`: each written field may be a key (SQL,
 * ORMs). `whole-key`: the write has one key, and it refuses repeats only when the write says so
 * (a plain Redis SET stores state under its key; SET … NX claims it).
 */
export type KeyPolicy = 'columns' | 'whole-key';

/**
 * Where a library's schema lives in a project, and how to read its unique keys. A location is a
 * file, or a folder with the ending of its files (and how deep to look), relative to a project
 * folder: `prisma/schema.prisma`, `{ folder: 'migrations', ending: '.sql', depth: 2 }`.
 */
export interface SchemaFiles {
  locations: readonly (string | { folder: string; ending: string; depth?: number })[];
  /** Files of a project folder that may say where the schema is (package.json), and the paths their text names. */
  pointers?: readonly { file: string; paths(text: string): string[] }[];
  /** The endings of files given in settings that this reader reads. */
  endings: readonly string[];
  /** The tables and unique keys a file declares; null when it cannot be read. */
  read(text: string, file: string): DeclaredTable[] | null;
  /** What the file is, for the warning when it cannot be read: "a Prisma schema". */
  kind: string;
  /** Every table the library writes is declared in such a file: one the project's files do not declare is declared outside them. */
  declaresEveryTable?: true;
}

/** A call sending DDL as text: `queryRunner.query(sql)` (receiver's last name, argument 0 by default), or sql`…`. */
export type DdlCall = { method: string; receiver: RegExp; argument?: number } | { tag: string };

/** Unique keys declared in model code (entity decorators, schema objects), read from the project's modules. */
export interface ModelFiles {
  /** A cheap look at a module's text: could it declare models of this library? */
  mentions: RegExp;
  read(module: AdapterFile): DeclaredTable[];
}

export interface DataAdapter {
  kind: 'data' | 'store';
  name: LibraryName;
  /** How the library is named in messages: "Prisma", "Redis". */
  label: string;
  modules?: readonly (string | RegExp)[];
  /**
   * The method names this adapter can recognise, a cheap reject asked before `recognise`.
   * `any` for SQL, which is recognised by the text a call sends whatever the method.
   */
  methods: ReadonlySet<string> | 'any';
  /** The library-neutral operations a call (or a tagged template) performs, if any. */
  recognise(
    node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression,
    file: AdapterFile,
  ): readonly DataOperation[] | DataOperation | undefined;
  /** What to do instead of a check-then-insert, in this library's words. */
  remedy: string;
  keyPolicy?: KeyPolicy;
  /** Codes, error names or message fragments by which the library reports a unique-key violation. */
  uniqueViolations?: readonly string[];
  /** A field unique in every table whatever the schema says (MongoDB's `_id`). */
  primaryKey?: string;
  /** How a unique violation is told from other errors, and how the schema declares a key (for a repair naming it). */
  uniqueKey?: {
    violation: UniqueViolationCheck;
    declare(write: DataOperation, fields: readonly string[], model?: string): string;
  };
  /** The library's schema files: where its tables' unique keys are declared. */
  schema?: SchemaFiles;
  /** Models declared in code, with their unique keys. */
  models?: ModelFiles;
  /** Calls in migration code that send DDL as text. */
  ddlCalls?: readonly DdlCall[];
  /**
   * How a write adds to a stored value rather than setting it: properties of its data naming the
   * operation (`{ credits: { increment: 5 } }`, `{ $inc: { credits: 5 } }`), or methods that do
   * (`increment('credits', 5)`). SQL says so in its text (`credits = credits + $1`).
   */
  increments?: { operators?: readonly string[]; fieldMaps?: readonly string[]; methods?: readonly string[] };
}

/**
 * A kind of collection in a process's memory: how it is made, the calls that ask whether it holds a
 * key and that record one. `[]` stands for indexing (`seen[id]`, `seen[id] = true`), `in` for `id in seen`.
 */
export interface CollectionSpec {
  /** `new Set()`: the class constructed; `literal`: an empty `[]` or `{}`. */
  construct?: string;
  literal?: 'array' | 'object';
  /** The class counts only when imported from one of these modules (a default import may take any name). */
  from?: readonly string[];
  /** Calls and forms that ask whether a key is held: `has`, `get`, `includes`, `[]`, `in`. */
  lookups: readonly string[];
  /** Calls and forms that record a key: `add`, `set`, `push`, `[]` (an assignment). */
  records: readonly string[];
  /** How messages name it: "a Set". */
  label: string;
  /** Options of its constructor that make each key expire by itself (`ttl`, `maxAge`). */
  expiresBy?: readonly string[];
}

/** What a team's own wrappers and helpers become, and the values adapters know (random ids, the clock). */
export interface ValueAdapter {
  kind: 'values';
  name: LibraryName;
  modules?: readonly (string | RegExp)[];
  /** Calls that make a new value every time, by callee name, with how messages name it. */
  mintingCalls?: Readonly<Record<string, string>>;
  /** Member chains that do the same (`Date.now`). */
  mintingPaths?: Readonly<Record<string, string>>;
  /** Calls that make such a function (`const guid = customAlphabet(…)`): each call of what they made mints. */
  mintingFactories?: Readonly<Record<string, string>>;
  /** Classes whose `new` makes a new value without arguments (`new ObjectId()`). */
  mintingConstructors?: Readonly<Record<string, string>>;
  /** Calls and member chains that name the worker (`os.hostname`, `process.pid`). */
  workerPaths?: Readonly<Record<string, string>>;
  /** Environment variables that name the worker. */
  workerVariables?: RegExp;
  /** Calls whose result is their argument in another form: conversions, hashes, key builders. */
  deriving?: RegExp;
  /** Calls that parse a body into its content (`JSON.parse`). */
  parsing?: readonly string[];
  /** Schema files or folders a team names, relative to the working directory. */
  schemaPaths?: readonly string[];
  /** Collections kept in the process's memory: a module's or an object's one outlives a delivery. */
  collections?: readonly CollectionSpec[];
  /** Modules only code that runs in a browser imports (UI frameworks): memory there is one user's page, not a worker's. */
  browserModules?: readonly (string | RegExp)[];
  /** Requests to another system and the methods that change it: `fetch(url, { method: 'POST' })`, not `fetch(url)`. */
  requests?: readonly RequestSpec[];
  /** Decorators that make a method, or every method of a class, a command an operator runs by hand. */
  commandDecorators?: readonly string[];
  /** A framework's import aliases, kept in a config it generates: `$lib` is `src/lib` beside `svelte.config.js`. */
  importAliases?: readonly { alias: string; folder: string; marker: readonly string[] }[];
}

export interface RequestSpec {
  /** The function called (`fetch`), or the module whose client it is (`axios`). */
  call: string;
  /** The option of its first or second argument that names the method. */
  methodOption: string;
  /** Methods that write, upper case. */
  writing: readonly string[];
  /** Its methods are named for the request method (`axios.post`, also on an instance `axios.create()` made). */
  verbs?: boolean;
}

/** Providers whose calls move money or send, with the fields they settle repeats by. */
export interface ProviderAdapter {
  kind: 'providers';
  name: LibraryName;
  providers: readonly ProviderSpec[];
}

export type LibraryAdapter = BrokerAdapter | DataAdapter | ValueAdapter | ProviderAdapter;
