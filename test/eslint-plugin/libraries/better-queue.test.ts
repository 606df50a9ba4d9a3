import { describe, expect, it } from 'vitest';

import { noInMemoryDedupe } from '../../../eslint-plugin/src/rules/no-in-memory-dedupe/index.js';
import { lintProject } from '../support/project.js';
import { ruleTester } from '../rule-tester.js';

/** A webhook that remembers event ids in the process, then hands the event to a queue. */
const webhook = (queue: string) => `
const seen = new Set();
export async function POST(request) {
  const id = request.headers.get('x-shopify-event-id');
  if (seen.has(id)) return new Response('duplicate');
  seen.add(id);
  ${queue}.push({ body: await request.json() });
  return new Response('queued');
}
`;
const shopify = `import '@shopify/shopify-api/adapters/node';`;

ruleTester.run('no-in-memory-dedupe', noInMemoryDedupe, {
  valid: [
    {
      name: 'near miss: an array named queue is memory, not work handed on',
      code: `${shopify}\nconst queue = [];\n${webhook('queue')}`,
    },
    {
      name: 'near miss: a queue the code was given, whose maker it cannot see, is not judged by its name',
      code: `${shopify}\nexport function register(queue) {\n${webhook('queue')}\n}`,
    },
  ],
  invalid: [
    {
      name: 'new Queue(worker).push(task) hands the work on: the memory gates it',
      code: `${shopify}\nimport Queue from 'better-queue';\nconst queue = new Queue(async (task) => { await fulfil(task); });\n${webhook('queue')}`,
      errors: [{ messageId: 'inMemory', data: { collection: 'seen', effect: 'queue.push()' }, line: 8 }],
    },
  ],
});

describe('better-queue adapter', () => {
  it('follows a queue made in another module of the project', async () => {
    const { findings } = await lintProject({
      'src/queue.ts':
        "import Queue from 'better-queue';\nimport { fulfil } from './fulfil';\nexport const queue = new Queue(fulfil);\n",
      'src/fulfil.ts': 'export async function fulfil(task) {}\n',
      'src/list.ts': 'export const queue = [];\n',
      'src/webhook.ts': `${shopify}\nimport { queue } from './queue';\n${webhook('queue')}`,
      'src/hook.ts': `${shopify}\nimport { queue } from './list';\n${webhook('queue')}`,
    });
    expect(findings).toEqual(['src/webhook.ts:7 idempotency/no-in-memory-dedupe/inMemory']);
  });
});
