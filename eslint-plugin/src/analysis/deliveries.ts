import { leaf, type Fact, type LeafKind } from './facts.js';
import { memberMeaning, type NameMeaning } from './names.js';

/**
 * What the message brokers hand a consumer, and which parts of it identify the delivery rather
 * than the business operation: kafkajs, amqplib, BullMQ and Bull, SQS (SDK v3, Lambda,
 * sqs-consumer), pg-boss, Google Pub/Sub, NestJS microservice contexts.
 */

export type Broker = 'kafka' | 'amqp' | 'bullmq' | 'sqs' | 'lambda' | 'pg-boss' | 'pubsub' | 'generic';

export type Role =
  /** One delivered message or job, as the broker hands it over. */
  | { type: 'delivery'; broker: Broker }
  /** A part of a delivery that is about transport, not content (AMQP `properties`, SQS `Attributes`). */
  | { type: 'envelope'; broker: Broker; part: string }
  /** Producer-set headers or attributes: their names say what they hold. */
  | { type: 'headers' }
  /** The raw body (a Buffer or a string) before it is parsed. */
  | { type: 'body' }
  /** The message's business content. */
  | { type: 'payload' }
  /** kafkajs `eachMessage({ topic, partition, message })`. */
  | { type: 'kafka-each-message' }
  /** kafkajs `eachBatch({ batch })` and the batch itself. */
  | { type: 'kafka-each-batch' }
  | { type: 'kafka-batch' }
  /** A Lambda event with `Records`. */
  | { type: 'lambda-event' }
  /** The output of an SQS receive: `Messages`. */
  | { type: 'sqs-receive' }
  /** NestJS `@Ctx()` context: KafkaContext, RmqContext, … */
  | { type: 'nest-context'; broker: Broker };

type Member = (code: string) => Fact;

const delivery = (what: string): Member => (code) => leaf('delivery', code, what);
const shaped = (role: Role): Member => (code) => ({ kind: 'shaped', role, code });
const unknown: Member = (code) => leaf('unknown', code);

/** Members of each broker's delivery object. Anything not listed is judged by its name. */
const deliveryMembers: Record<Broker, Record<string, Member>> = {
  kafka: {
    offset: delivery('the Kafka offset'),
    partition: delivery('the Kafka partition'),
    topic: delivery('the Kafka topic'),
    timestamp: delivery('the Kafka record timestamp'),
    value: shaped({ type: 'body' }),
    headers: shaped({ type: 'headers' }),
    // A Kafka key is chosen by the producer, usually an entity id shared by many operations.
    key: unknown,
  },
  amqp: {
    properties: shaped({ type: 'envelope', broker: 'amqp', part: 'properties' }),
    fields: shaped({ type: 'envelope', broker: 'amqp', part: 'fields' }),
    content: shaped({ type: 'body' }),
  },
  bullmq: {
    id: delivery('the job id'),
    attemptsMade: delivery('the attempt count'),
    attemptsStarted: delivery('the attempt count'),
    timestamp: delivery('the job timestamp'),
    processedOn: delivery('the time processing started'),
    token: delivery('the worker lock token'),
    data: shaped({ type: 'payload' }),
    opts: shaped({ type: 'envelope', broker: 'bullmq', part: 'opts' }),
    name: unknown,
    queueName: unknown,
  },
  sqs: {
    MessageId: delivery('the SQS message id'),
    ReceiptHandle: delivery('the SQS receipt handle'),
    Body: shaped({ type: 'body' }),
    Attributes: shaped({ type: 'envelope', broker: 'sqs', part: 'Attributes' }),
    MessageAttributes: shaped({ type: 'headers' }),
    MD5OfBody: unknown,
  },
  lambda: {
    messageId: delivery('the SQS message id'),
    receiptHandle: delivery('the SQS receipt handle'),
    eventID: delivery('the stream event id'),
    body: shaped({ type: 'body' }),
    attributes: shaped({ type: 'envelope', broker: 'sqs', part: 'attributes' }),
    messageAttributes: shaped({ type: 'headers' }),
    kinesis: shaped({ type: 'envelope', broker: 'lambda', part: 'kinesis' }),
    Sns: shaped({ type: 'envelope', broker: 'lambda', part: 'Sns' }),
    dynamodb: shaped({ type: 'payload' }),
    eventSourceARN: unknown,
  },
  'pg-boss': {
    id: delivery('the pg-boss job id'),
    retryCount: delivery('the retry count'),
    data: shaped({ type: 'payload' }),
    name: unknown,
  },
  pubsub: {
    id: delivery('the Pub/Sub message id'),
    ackId: delivery('the Pub/Sub ack id'),
    deliveryAttempt: delivery('the delivery attempt'),
    publishTime: delivery('the publish time'),
    data: shaped({ type: 'body' }),
    attributes: shaped({ type: 'headers' }),
    orderingKey: unknown,
  },
  generic: {
    id: delivery("the message's delivery id"),
    messageId: delivery('the message id'),
    MessageId: delivery('the message id'),
    offset: delivery('the message offset'),
    partition: delivery('the partition'),
    deliveryTag: delivery('the delivery tag'),
    receiptHandle: delivery('the receipt handle'),
    ReceiptHandle: delivery('the receipt handle'),
    attemptsMade: delivery('the attempt count'),
    properties: shaped({ type: 'envelope', broker: 'amqp', part: 'properties' }),
    fields: shaped({ type: 'envelope', broker: 'amqp', part: 'fields' }),
    value: shaped({ type: 'body' }),
    content: shaped({ type: 'body' }),
    body: shaped({ type: 'body' }),
    Body: shaped({ type: 'body' }),
    data: shaped({ type: 'payload' }),
    payload: shaped({ type: 'payload' }),
    headers: shaped({ type: 'headers' }),
    attributes: shaped({ type: 'headers' }),
  },
};

const envelopeMembers: Record<string, Record<string, Member>> = {
  properties: {
    messageId: delivery('the AMQP message id'),
    correlationId: delivery('the AMQP correlation id'),
    timestamp: delivery('the AMQP timestamp'),
    headers: shaped({ type: 'headers' }),
  },
  fields: {
    deliveryTag: delivery('the AMQP delivery tag'),
    consumerTag: delivery('the AMQP consumer tag'),
    redelivered: delivery('the redelivered flag'),
    exchange: unknown,
    routingKey: unknown,
  },
  opts: {
    jobId: delivery('the job id'),
    repeatJobKey: unknown,
  },
  Attributes: {
    ApproximateReceiveCount: delivery('the SQS receive count'),
    SentTimestamp: delivery('the SQS sent timestamp'),
    ApproximateFirstReceiveTimestamp: delivery('the SQS first receive time'),
    SequenceNumber: delivery('the SQS sequence number'),
    // Set by the producer to name the operation: the right kind of key.
    MessageDeduplicationId: (code) => leaf('business', code),
    MessageGroupId: (code) => leaf('scope', code),
  },
  attributes: {
    approximateReceiveCount: delivery('the SQS receive count'),
    sentTimestamp: delivery('the SQS sent timestamp'),
    approximateFirstReceiveTimestamp: delivery('the SQS first receive time'),
    sequenceNumber: delivery('the SQS sequence number'),
    messageDeduplicationId: (code) => leaf('business', code),
    messageGroupId: (code) => leaf('scope', code),
  },
  kinesis: {
    sequenceNumber: delivery('the Kinesis sequence number'),
    data: shaped({ type: 'body' }),
    partitionKey: unknown,
  },
  Sns: {
    MessageId: delivery('the SNS message id'),
    Timestamp: delivery('the SNS timestamp'),
    Message: shaped({ type: 'body' }),
    MessageAttributes: shaped({ type: 'headers' }),
  },
};

const meaningToKind: Record<NameMeaning, LeafKind | undefined> = {
  delivery: 'delivery',
  worker: 'worker',
  amount: 'amount',
  currency: 'currency',
  time: 'time',
  scope: 'scope',
  business: 'business',
  identifier: undefined,
  other: undefined,
};

/** A value read by name only: `refund.id` is a business id, `event.cents` an amount. */
export function byName(owner: string | undefined, name: string, code: string): Fact | undefined {
  const kind = meaningToKind[memberMeaning(owner, name)];
  if (!kind) return undefined;
  return kind === 'delivery' || kind === 'worker' ? leaf(kind, code, `named ${name}`) : leaf(kind, code);
}

function lastWord(code: string): string | undefined {
  return /([A-Za-z_$][\w$]*)\s*$/.exec(code)?.[1];
}

/** `role.name`: the facts of a member of a shaped value. */
export function memberOfRole(role: Role, name: string, code: string, ownerCode: string): Fact[] {
  switch (role.type) {
    case 'delivery': {
      const known = deliveryMembers[role.broker][name] ?? (role.broker === 'generic' ? undefined : deliveryMembers.generic[name]);
      if (known) return [known(code)];
      const named = byName(undefined, name, code);
      return named ? [named] : [shaped({ type: 'payload' })(code)];
    }
    case 'envelope': {
      const known = envelopeMembers[role.part]?.[name];
      if (known) return [known(code)];
      return [byName(undefined, name, code) ?? leaf('unknown', code)];
    }
    case 'headers':
    case 'payload': {
      const named = byName(lastWord(ownerCode), name, code);
      // Anything not named like an id or an amount may be a nested object of the payload.
      return [named ?? { kind: 'shaped', role: { type: 'payload' }, code }];
    }
    case 'body':
      return [leaf('unknown', code)];
    case 'kafka-each-message':
      if (name === 'message') return [shaped({ type: 'delivery', broker: 'kafka' })(code)];
      if (name === 'topic' || name === 'partition') return [delivery(`the Kafka ${name}`)(code)];
      return [leaf('unknown', code)];
    case 'kafka-each-batch':
      if (name === 'batch') return [shaped({ type: 'kafka-batch' })(code)];
      return [leaf('unknown', code)];
    case 'kafka-batch':
      if (name === 'messages') return [{ kind: 'list', elements: [shaped({ type: 'delivery', broker: 'kafka' })(`${code}[]`)], code }];
      if (name === 'topic' || name === 'partition') return [delivery(`the Kafka ${name}`)(code)];
      if (name === 'firstOffset' || name === 'lastOffset' || name === 'highWatermark') return [delivery('a Kafka offset')(code)];
      return [leaf('unknown', code)];
    case 'sqs-receive':
      if (name === 'Messages') return [{ kind: 'list', elements: [shaped({ type: 'delivery', broker: 'sqs' })(`${code}[]`)], code }];
      return [leaf('unknown', code)];
    case 'lambda-event':
      if (name === 'Records') return [{ kind: 'list', elements: [shaped({ type: 'delivery', broker: 'lambda' })(`${code}[]`)], code }];
      return [leaf('unknown', code)];
    case 'nest-context':
      return [leaf('unknown', code)];
  }
}

/** `role.method(…)`: parsing a body yields the payload; a Nest context yields the delivery. */
export function callOnRole(role: Role, method: string, code: string): Fact[] | undefined {
  if (role.type === 'body' && ['toString', 'toJSON'].includes(method)) return [{ kind: 'shaped', role, code }];
  // AWS SDK v2: sqs.receiveMessage(params).promise()
  if (role.type === 'sqs-receive' && method === 'promise') return [{ kind: 'shaped', role, code }];
  if (role.type === 'nest-context') {
    if (method === 'getMessage') return [{ kind: 'shaped', role: { type: 'delivery', broker: role.broker }, code }];
    if (method === 'getPartition' || method === 'getTopic') return [leaf('delivery', code, `the Kafka ${method.slice(3).toLowerCase()}`)];
    if (method === 'getPattern' || method === 'getSubject' || method === 'getChannelRef') return [leaf('unknown', code)];
  }
  return undefined;
}
