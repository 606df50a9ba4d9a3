import { describe, expect, it } from 'vitest';

import type { EntryPointListing } from '../../extension/src/lint/lint-engine.js';
import { entryPointTree } from '../../extension/src/entry-points/entry-point-tree.js';

/** The tree the Entry Points view shows, from listings made by hand: each kind under its own heading, in a fixed order. */

const entry = (name: string, kind: EntryPointListing['kind'], library?: string): EntryPointListing => ({
  name,
  label: name,
  kind,
  ...(library ? { library } : {}),
  start: { file: '/w/src/a.ts', line: 1, column: 1 },
  end: { line: 2, column: 1 },
  repeats: { by: 'nothing', what: 'nothing found' },
  findings: [],
});

describe('entryPointTree', () => {
  it('lists crons under their own heading, after jobs, grouped by library', () => {
    const tree = entryPointTree(
      new Map([
        [
          'src/a.ts',
          [
            entry('hourly', 'cron', 'nestjs-schedule'),
            entry('new Worker', 'job', 'bullmq'),
            entry('sweep', 'cron', 'node-cron'),
            entry('eachMessage', 'consumer', 'kafkajs'),
          ],
        ],
      ]),
    );
    expect(
      tree.map((kind) => [
        kind.type === 'kind' && kind.label,
        kind.type === 'kind' && kind.children.map((library) => library.type === 'library' && library.label),
      ]),
    ).toEqual([
      ['Consumers', ['kafkajs']],
      ['Jobs', ['bullmq']],
      ['Crons', ['nestjs-schedule', 'node-cron']],
    ]);
  });
});
