import { noInMemoryDedupe } from '../../../eslint-plugin/src/rules/no-in-memory-dedupe/index.js';
import { ruleTester } from '../rule-tester.js';

const consumer = (made: string) => `
import { Kafka } from 'kafkajs';
${made}
const handled = new Set();
export async function start(consumer) {
  await consumer.run({
    eachMessage: async ({ message }) => {
      const refund = JSON.parse(message.value.toString());
      if (handled.has(refund.refundId)) return;
      handled.add(refund.refundId);
      await queue.push(refund);
    },
  });
}
`;

ruleTester.run('no-in-memory-dedupe', noInMemoryDedupe, {
  valid: [
    {
      name: 'near miss: a queue of another making is not judged by its name',
      code: consumer(`import { makeQueue } from 'some-local-lib';\nconst queue = makeQueue();`),
    },
  ],
  invalid: [
    {
      name: 'fastq(worker, 1): a push hands the refund to the worker',
      code: consumer(`import fastq from 'fastq';\nconst queue = fastq(refundWorker, 1);`),
      errors: [{ messageId: 'inMemory', data: { collection: 'handled', effect: 'queue.push()' }, line: 10 }],
    },
    {
      name: 'fastq.promise(worker, 1) as well',
      code: consumer(`import fastq from 'fastq';\nconst queue = fastq.promise(refundWorker, 1);`),
      errors: [{ messageId: 'inMemory', data: { collection: 'handled', effect: 'queue.push()' }, line: 10 }],
    },
  ],
});
