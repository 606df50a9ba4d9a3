import type { TSESTree } from '@typescript-eslint/utils';

import type { Broker, Role } from './deliveries.js';
import type { Fact } from './facts.js';
import { calleeName, keyName, memberPath } from './scope.js';

/**
 * Which functions handle a delivery, and what each of their parameters holds. A function is a
 * consumer because of where it is registered (kafkajs `eachMessage`, amqplib `consume`, BullMQ
 * `new Worker`, pg-boss `work`, sqs-consumer `handleMessage`, Pub/Sub `on('message')`, NestJS
 * message decorators, a Lambda SQS handler), because of its parameter types, or, as a last
 * resort, because of its parameter names.
 */

export type FunctionNode = TSESTree.FunctionDeclaration | TSESTree.FunctionExpression | TSESTree.ArrowFunctionExpression;

export interface FileImports {
  /** Module sources imported or required anywhere in the file. */
  sources: Set<string>;
  /** Local binding name → module source. */
  bindings: Map<string, string>;
}

const shape = (role: Role, code: string): Fact => ({ kind: 'shaped', role, code });
const deliveryOf = (broker: Broker, code: string): Fact => shape({ type: 'delivery', broker }, code);
const listOf = (broker: Broker, code: string): Fact => ({ kind: 'list', elements: [deliveryOf(broker, `${code}[]`)], code });

function imports(file: FileImports, pattern: RegExp): boolean {
  for (const source of file.sources) if (pattern.test(source)) return true;
  return false;
}

const bullModules = /^(bullmq|bull|bee-queue|@nestjs\/bull(mq)?|@nestjs\/bull-shared)$/;

/** The facts of parameter `index` of `fn`, from how `fn` is registered with a broker API. */
function fromRegistration(fn: FunctionNode, site: TSESTree.Node, index: number, param: string, file: FileImports): Fact[] | undefined {
  const parent = site.parent;
  if (!parent) return undefined;

  // { eachMessage: fn }, { eachBatch: fn }, { handleMessage: fn }
  if (parent.type === 'Property' && parent.value === site) {
    const key = keyName(parent);
    if (index !== 0) return undefined;
    if (key === 'eachMessage') return [shape({ type: 'kafka-each-message' }, param)];
    if (key === 'eachBatch') return [shape({ type: 'kafka-each-batch' }, param)];
    if (key === 'handleMessage') return [deliveryOf('sqs', param)];
    if (key === 'handleMessageBatch') return [listOf('sqs', param)];
    return undefined;
  }

  if ((parent.type === 'CallExpression' || parent.type === 'NewExpression') && parent.arguments.includes(site as TSESTree.CallExpressionArgument)) {
    const position = parent.arguments.indexOf(site as TSESTree.CallExpressionArgument);
    const method = calleeName(parent.callee);
    if (parent.type === 'NewExpression' && method === 'Worker' && position >= 1 && index === 0) return [deliveryOf('bullmq', param)];
    if (parent.type !== 'CallExpression') return undefined;
    const receiver = parent.callee.type === 'MemberExpression' ? memberPath(parent.callee.object)?.join('.') ?? '' : '';
    if (method === 'consume' && position >= 1 && index === 0) return [deliveryOf('amqp', param)];
    if (method === 'process' && index === 0 && (imports(file, bullModules) || /^jobs?$/.test(param))) {
      return [deliveryOf('bullmq', param)];
    }
    if (method === 'work' && index === 0 && position >= 1 && (imports(file, /^pg-boss$/) || /boss/i.test(receiver))) {
      // pg-boss 10 passes an array of jobs; earlier versions pass one job.
      return fn.params[0]?.type === 'ArrayPattern' || /jobs$/i.test(param) ? [listOf('pg-boss', param)] : [deliveryOf('pg-boss', param)];
    }
    if (method === 'on' && index === 0 && imports(file, /^@google-cloud\/pubsub$/)) {
      const event = parent.arguments[0];
      if (event?.type === 'Literal' && event.value === 'message') return [deliveryOf('pubsub', param)];
    }
  }
  return undefined;
}

function decoratorName(decorator: TSESTree.Decorator): string | undefined {
  const expression = decorator.expression;
  if (expression.type === 'CallExpression') return calleeName(expression.callee);
  if (expression.type === 'Identifier') return expression.name;
  return undefined;
}

const nestMessageDecorators = new Set(['EventPattern', 'MessagePattern']);

/** NestJS: `@EventPattern() on(@Payload() data, @Ctx() context)`, `@Process() handle(job)`, … */
function fromDecorators(fn: FunctionNode, index: number, param: TSESTree.Parameter, code: string): Fact[] | undefined {
  // espree leaves `decorators` out entirely; typescript-eslint gives an empty list.
  const method = fn.parent;
  if (method?.type !== 'MethodDefinition' || method.value !== fn) return undefined;
  const decorators = new Set((method.decorators ?? []).map(decoratorName));
  const parameterDecorators = new Set(('decorators' in param ? param.decorators ?? [] : []).map(decoratorName));
  const classNode = method.parent.parent;
  const classDecorators = new Set(
    classNode && (classNode.type === 'ClassDeclaration' || classNode.type === 'ClassExpression') ? (classNode.decorators ?? []).map(decoratorName) : [],
  );

  if ([...decorators].some((name) => name && nestMessageDecorators.has(name))) {
    if (parameterDecorators.has('Payload')) return [shape({ type: 'payload' }, code)];
    if (parameterDecorators.has('Ctx')) return [shape({ type: 'nest-context', broker: contextBroker(param) }, code)];
    if (index === 0) return [shape({ type: 'payload' }, code)];
    if (index === 1) return [shape({ type: 'nest-context', broker: contextBroker(param) }, code)];
  }
  if (decorators.has('RabbitSubscribe') || decorators.has('RabbitRPC')) {
    if (index === 0) return [shape({ type: 'payload' }, code)];
    if (index === 1) return [deliveryOf('amqp', code)];
  }
  if (decorators.has('SqsMessageHandler') && index === 0) return [deliveryOf('sqs', code)];
  if (index === 0 && (decorators.has('Process') || (classDecorators.has('Processor') && keyName(method) === 'process'))) {
    return [deliveryOf('bullmq', code)];
  }
  return undefined;
}

function typeName(param: TSESTree.Node): string | undefined {
  const annotation = 'typeAnnotation' in param ? (param.typeAnnotation as TSESTree.TSTypeAnnotation | undefined) : undefined;
  const type = annotation?.typeAnnotation;
  if (type?.type !== 'TSTypeReference') return undefined;
  const name = type.typeName;
  if (name.type === 'Identifier') return name.name;
  if (name.type === 'TSQualifiedName') return name.right.name;
  return undefined;
}

function contextBroker(param: TSESTree.Node): Broker {
  const name = typeName(param);
  if (name === 'KafkaContext') return 'kafka';
  if (name === 'RmqContext') return 'amqp';
  return 'generic';
}

/** Types whose names say what a parameter holds. `Message` depends on where it is imported from. */
const typedRoles: Record<string, (code: string) => Fact> = {
  KafkaMessage: (code) => deliveryOf('kafka', code),
  EachMessagePayload: (code) => shape({ type: 'kafka-each-message' }, code),
  EachBatchPayload: (code) => shape({ type: 'kafka-each-batch' }, code),
  Batch: (code) => shape({ type: 'kafka-batch' }, code),
  ConsumeMessage: (code) => deliveryOf('amqp', code),
  Job: (code) => deliveryOf('bullmq', code),
  SQSRecord: (code) => deliveryOf('lambda', code),
  SQSEvent: (code) => shape({ type: 'lambda-event' }, code),
  KinesisStreamEvent: (code) => shape({ type: 'lambda-event' }, code),
  SNSEvent: (code) => shape({ type: 'lambda-event' }, code),
  KafkaContext: (code) => shape({ type: 'nest-context', broker: 'kafka' }, code),
  RmqContext: (code) => shape({ type: 'nest-context', broker: 'amqp' }, code),
};

const messageTypeSources: Record<string, Broker> = {
  amqplib: 'amqp',
  '@aws-sdk/client-sqs': 'sqs',
  '@google-cloud/pubsub': 'pubsub',
  'pg-boss': 'pg-boss',
};

const handlerTypes = new Set(['SQSHandler', 'KinesisStreamHandler', 'SNSHandler']);

function fromTypes(fn: FunctionNode, index: number, param: TSESTree.Node, code: string, file: FileImports): Fact[] | undefined {
  const name = typeName(param);
  if (name && typedRoles[name]) return [typedRoles[name](code)];
  if (name === 'Message' || name === 'JobWithMetadata') {
    const source = file.bindings.get(name);
    const broker = source ? messageTypeSources[source] : undefined;
    if (broker) return [deliveryOf(broker, code)];
  }
  // export const handler: SQSHandler = async (event) => …
  const declarator = fn.parent;
  if (index === 0 && declarator?.type === 'VariableDeclarator' && declarator.init === fn) {
    const handlerType = typeName(declarator.id);
    if (handlerType && handlerTypes.has(handlerType)) return [shape({ type: 'lambda-event' }, code)];
  }
  return undefined;
}

const deliveryParameterNames = /^(message|msg|rawMessage|kafkaMessage|sqsMessage|amqpMessage|delivery|envelope|job)$/;

/** The last resort: names. `message` and `job` hold a delivery, `jobs` and `messages` a list of them. */
export function deliveryByName(name: string): Fact[] | undefined {
  if (deliveryParameterNames.test(name)) return [deliveryOf('generic', name)];
  if (/^(jobs|messages)$/.test(name)) return [listOf('generic', name)];
  return undefined;
}

export function functionName(fn: FunctionNode): string | undefined {
  if (fn.id) return fn.id.name;
  const parent = fn.parent;
  if (parent?.type === 'VariableDeclarator' && parent.id.type === 'Identifier') return parent.id.name;
  if ((parent?.type === 'Property' || parent?.type === 'MethodDefinition') && parent.value === fn) return keyName(parent);
  return undefined;
}

/**
 * What parameter `index` of `fn` holds when `fn` is a consumer, judged from the places the
 * function is registered (`sites`: the function itself and every reference to its name).
 */
export function consumerParameter(
  fn: FunctionNode,
  index: number,
  sites: readonly TSESTree.Node[],
  file: FileImports,
): Fact[] | undefined {
  const param = fn.params[index];
  if (!param) return undefined;
  const code = param.type === 'Identifier' ? param.name : `parameter ${index + 1}`;
  for (const site of sites) {
    const found = fromRegistration(fn, site, index, code, file);
    if (found) return found;
  }
  return fromDecorators(fn, index, param, code) ?? fromTypes(fn, index, param, code, file);
}

/** Names are consulted only when nothing else in the file says what a parameter holds. */
export function namedParameter(fn: FunctionNode, index: number): Fact[] | undefined {
  const param = fn.params[index];
  if (!param) return undefined;
  const inner = param.type === 'AssignmentPattern' ? param.left : param;
  if (inner.type !== 'Identifier') return undefined;
  // The `event` of a function called `handler` is a Lambda event.
  if (index === 0 && inner.name === 'event' && functionName(fn) === 'handler') return [shape({ type: 'lambda-event' }, inner.name)];
  return deliveryByName(inner.name);
}
