import type { BrokerAdapter } from '../analysis/index.js';

/** BullMQ and Bull (and bee-queue, @nestjs/bull): `new Worker(name, processor)`, `queue.process(fn)`, `@Processor` classes. */
export const bullmq: BrokerAdapter = {
  kind: 'broker',
  name: 'bullmq',
  entry: 'BullMQ worker',
  entryKind: 'job',
  modules: ['bullmq', 'bull', 'bee-queue', '@nestjs/bull', '@nestjs/bullmq', '@nestjs/bull-shared'],
  shapes: {
    job: {
      inherits: 'common:delivery',
      members: {
        id: { identity: 'the job id' },
        attemptsMade: { identity: 'the attempt count' },
        attemptsStarted: { identity: 'the attempt count' },
        timestamp: { identity: 'the job timestamp' },
        processedOn: { identity: 'the time processing started' },
        token: { identity: 'the worker lock token' },
        data: { shape: 'payload' },
        opts: { shape: 'bullmq:options' },
        name: { kind: 'unknown' },
        queueName: { kind: 'unknown' },
      },
    },
    options: {
      otherMembers: 'unknown',
      members: {
        jobId: { identity: 'the job id' },
        repeatJobKey: { kind: 'unknown' },
      },
    },
  },
  handlers: [
    { construct: 'Worker', argument: 1, shape: 'bullmq:job' },
    { call: 'process', argument: 0, shape: 'bullmq:job', evidence: { imports: true, parameterName: /^jobs?$/ } },
    { decorators: ['Process'], byPosition: ['bullmq:job'] },
    { classDecorator: 'Processor', method: 'process', shape: 'bullmq:job' },
  ],
  types: [{ type: 'Job', shape: 'bullmq:job' }],
  // `add` is also a collection's: on a `new Queue(…)` of BullMQ's, whatever its name, it sends.
  sends: { methods: ['add', 'addBulk'], instanceMethods: ['add', 'addBulk'] },
  // A job added with a `jobId` BullMQ has seen is dropped: a producer that names the operation there settles repeats.
  producerDedupe: {
    queue: [{ argument: 0 }, { classDecorator: 'Processor' }],
    sends: [{ construct: 'Queue', decorator: 'InjectQueue', method: 'add', optionsArgument: 'last', option: 'jobId' }],
  },
  nameWords: ['bull', 'bullmq'],
};
