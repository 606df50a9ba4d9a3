import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

describe('graphile-worker adapter', () => {
  it.each([
    [
      'a task typed with JobHelpers from graphile-worker',
      `import type { JobHelpers } from 'graphile-worker';
       export async function remind(payload: any, helpers: JobHelpers) { probe(helpers.job.id); probe(helpers.job.attempts); probe(helpers.job.key); }`,
      [['delivery:the graphile-worker job id'], ['delivery:the attempt count'], ['business']],
    ],
    [
      'a JobHelpers type of another module is not graphile-worker’s: its members are judged by name',
      `import type { JobHelpers } from './jobs';
       export async function remind(payload: any, helpers: JobHelpers) { probe(helpers.job.attempts); }`,
      [['delivery:named attempts']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
