import type { RaceScenario } from '../src/scenario.js';
import { claimNotice, claimNoticeByChecking } from './handlers/example-4-1.js';
import { inboxTable, uncheckedInboxTable } from './tables.js';

/** Example 4.1's two handlers, raced by workers A and B on two connections of a real server. */
export const races: readonly RaceScenario[] = [
  {
    label: '4.1 race, check then insert',
    schemaSql: uncheckedInboxTable,
    message: { id: 'notice-amber' },
    handler: claimNoticeByChecking,
    words: { took: 'inserted', declined: 'skipped' },
  },
  {
    label: '4.1 race, unique claim',
    schemaSql: inboxTable,
    message: { id: 'notice-amber' },
    handler: claimNotice,
    words: { took: 'fresh', declined: 'conflict' },
  },
  {
    label: '4.1 race, unique claim, A rolls back',
    schemaSql: inboxTable,
    message: { id: 'notice-amber' },
    handler: claimNotice,
    words: { took: 'fresh', declined: 'conflict' },
    rollsBack: 'A',
  },
];
