import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import { Inngest } from 'inngest';`;

describe('inngest adapter', () => {
  it.each([
    [
      'createFunction: the event id and the attempt identify the delivery',
      `${imports} inngest.createFunction({ id: 'refund' }, { event: 'refund/requested' }, async ({ event, step, attempt }) => { probe(event.id); probe(attempt); probe(event.data.refundId); });`,
      [['delivery:the Inngest event id'], ['delivery:the Inngest attempt'], ['business']],
    ],
    [
      'the handler as the second argument',
      `${imports} client.createFunction({ id: 'x', triggers: [{ event: 'x' }] }, async (ctx) => { probe(ctx.event.data.cents); probe(ctx.runId); });`,
      [['amount'], ['delivery:the Inngest run id']],
    ],
    [
      'a batch of events',
      `${imports} inngest.createFunction({ id: 'b' }, { event: 'b' }, async ({ events }) => { for (const e of events) probe(e.id); });`,
      [['delivery:the Inngest event id']],
    ],
    [
      'an inngest client in a file that does not import it',
      `export default inngest.createFunction({ id: 'x' }, { event: 'x' }, async ({ event }) => { probe(event.id); });`,
      [['delivery:the Inngest event id']],
    ],
    [
      "near miss: another library's createFunction is judged by names only",
      `lambda.createFunction({ FunctionName: 'f' }, async ({ event, attempt }) => { probe(event.id); probe(attempt); });`,
      [['delivery:named id'], ['delivery:named attempt']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
