/**
 * Where each rule is taught. The anchors name places in the lessons package
 * (`<lesson id>#<anchor>`); the docs pages, the editor's "Learn why" action and a
 * test in the lessons package all read this one table, so they cannot drift apart.
 */
export interface LessonLink {
  /** The lesson the rule belongs to, e.g. `idempotent-consumers`. */
  lesson: string;
  /** The place "Learn why" opens: a quiz question or an example. */
  anchor: string;
  /** Further places in the same lesson that teach the same mistake. */
  seeAlso: readonly string[];
}

export const lessonLinks = {
  'no-delivery-id-effect-key': {
    lesson: 'idempotent-consumers',
    anchor: 'q1',
    seeAlso: ['example-4-4'],
  },
  'no-amount-effect-key': {
    lesson: 'idempotent-consumers',
    anchor: 'q4',
    seeAlso: [],
  },
  'no-check-then-insert': {
    lesson: 'idempotent-consumers',
    anchor: 'example-4-1',
    seeAlso: ['tip-1'],
  },
} as const satisfies Record<string, LessonLink>;

export type RuleName = keyof typeof lessonLinks;

/** `idempotent-consumers#q1`: the form other tools use to open a lesson at a place. */
export function lessonTarget(rule: RuleName): string {
  const link = lessonLinks[rule];
  return `${link.lesson}#${link.anchor}`;
}
