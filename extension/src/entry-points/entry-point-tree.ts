import type { EntryKind, MappedPlace, MappedRepeats } from 'eslint-plugin-idempotency';

import type { EntryPointListing } from '../lint/lint-engine.js';

/**
 * The entry points of a workspace as a tree: by kind (consumers, webhooks, jobs, crons), then by
 * library, then each handler with what settles its repeats and its findings. Plain data, so the
 * view only turns nodes into tree items.
 */

export type EntryPointNode =
  | { type: 'kind'; kind: EntryKind; label: string; count: number; children: EntryPointNode[] }
  | { type: 'library'; label: string; count: number; children: EntryPointNode[] }
  | { type: 'entry'; entry: EntryPointListing; file: string; children: EntryPointNode[] }
  | { type: 'repeats'; repeats: MappedRepeats }
  | { type: 'finding'; finding: EntryPointListing['findings'][number]; at: MappedPlace };

const kinds: { kind: EntryKind; label: string }[] = [
  { kind: 'consumer', label: 'Consumers' },
  { kind: 'webhook', label: 'Webhooks' },
  { kind: 'job', label: 'Jobs' },
  { kind: 'cron', label: 'Crons' },
];

/** Repeats the analysis saw settled, as opposed to nothing found or something it could not read. */
export function settled(repeats: MappedRepeats): boolean {
  return repeats.by !== 'nothing' && repeats.by !== 'unread';
}

export function entryPointTree(byFile: ReadonlyMap<string, readonly EntryPointListing[]>): EntryPointNode[] {
  const all = [...byFile.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .flatMap(([file, entries]) => entries.map((entry) => ({ file, entry })));
  return kinds.flatMap(({ kind, label }) => {
    const ofKind = all.filter(({ entry }) => entry.kind === kind);
    if (ofKind.length === 0) return [];
    const libraries = [...new Set(ofKind.map(({ entry }) => entry.library ?? 'other'))].sort();
    return [
      {
        type: 'kind' as const,
        kind,
        label,
        count: ofKind.length,
        children: libraries.map((library) => {
          const entries = ofKind.filter(({ entry }) => (entry.library ?? 'other') === library);
          return {
            type: 'library' as const,
            label: library,
            count: entries.length,
            children: entries.map(({ file, entry }) => ({
              type: 'entry' as const,
              entry,
              file,
              children: [
                { type: 'repeats' as const, repeats: entry.repeats },
                ...entry.findings.map((finding) => ({
                  type: 'finding' as const,
                  finding,
                  at: { file, line: finding.line, column: finding.column },
                })),
              ],
            })),
          };
        }),
      },
    ];
  });
}
