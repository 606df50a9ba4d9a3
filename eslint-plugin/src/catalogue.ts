/**
 * The one list of the plugin's rules: what each reports, where it is taught, how it is reported
 * by default. Everything that lists rules reads it: the plugin object and its recommended
 * config, the rule pages' test, the README's table, the editor extension's rule list and its
 * settings. It is plain data, so the extension can read it without loading the rules.
 */

/** A place in the lessons package that teaches a rule: `<lesson>#<anchor>`. */
export interface LessonLink {
  /** The lesson the rule belongs to, e.g. `idempotent-consumers`. */
  lesson: string;
  /** The place "Learn why" opens: a quiz question or an example. */
  anchor: string;
  /** Further places in the same lesson that teach the same mistake. */
  seeAlso: readonly string[];
}

export interface CatalogueEntry {
  description: string;
  /** How the configs that turn the rule on report it. */
  severity: 'error' | 'warn';
  /**
   * The config that turns the rule on: `recommended` (and `strict`, which has every rule), or
   * `strict` alone, for a rule whose precision on real code is not yet shown.
   */
  config: 'recommended' | 'strict';
  lesson: LessonLink;
}

export const catalogue = {
  'no-delivery-id-effect-key': {
    description:
      'Disallow keying a business effect by the identity of a delivery: a message id, an offset, a job id, a fresh random id or the worker',
    severity: 'error',
    config: 'recommended',
    lesson: { lesson: 'idempotent-consumers', anchor: 'q1', seeAlso: ['example-4-4'] },
  },
  'no-amount-effect-key': {
    description:
      'Disallow an effect key or a duplicate check whose identity is an amount, alone or with an account, currency or date',
    severity: 'error',
    config: 'recommended',
    lesson: { lesson: 'idempotent-consumers', anchor: 'q4', seeAlso: [] },
  },
  'no-check-then-insert': {
    description:
      'Disallow checking for a row in application code and then inserting it without letting the database settle duplicates',
    severity: 'error',
    config: 'recommended',
    lesson: { lesson: 'idempotent-consumers', anchor: 'example-4-1', seeAlso: ['tip-1'] },
  },
  'no-claim-after-effect': {
    description:
      'Disallow recording that a delivery or operation was handled only after its effect ran, or through a claim whose result is ignored',
    severity: 'error',
    config: 'recommended',
    lesson: { lesson: 'idempotent-consumers', anchor: 'example-4-6', seeAlso: ['q5'] },
  },
  'no-in-memory-dedupe': {
    description:
      'Disallow deciding whether a delivery was already handled from a collection in process memory, which a restart or a second worker does not share',
    severity: 'error',
    config: 'recommended',
    lesson: { lesson: 'idempotent-consumers', anchor: 'example-4-7', seeAlso: ['q6'] },
  },
  'no-claim-without-unique-key': {
    description:
      'Disallow a claim that counts on a unique key the schema does not declare: ON CONFLICT, an upsert or a caught duplicate with nothing to settle it',
    severity: 'error',
    config: 'recommended',
    lesson: { lesson: 'idempotent-consumers', anchor: 'example-4-8', seeAlso: ['q7'] },
  },
  'require-repeat-safe-effect': {
    description:
      'Require a repeat-safe boundary (a claim, a unique key, an idempotency key) before an effect that adds, in code that handles deliveries',
    severity: 'error',
    config: 'strict',
    lesson: { lesson: 'idempotent-consumers', anchor: 'example-4-15', seeAlso: ['predict'] },
  },
} as const satisfies Record<string, CatalogueEntry>;

export type RuleName = keyof typeof catalogue;

export const ruleNames = Object.keys(catalogue) as RuleName[];

/** Where each rule is taught; the docs pages, "Learn why" and a lessons test read it. */
export const lessonLinks = Object.fromEntries(ruleNames.map((name) => [name, catalogue[name].lesson])) as {
  [Name in RuleName]: (typeof catalogue)[Name]['lesson'];
};

/** `idempotent-consumers#q1`: the form other tools use to open a lesson at a place. */
export function lessonTarget(rule: RuleName): string {
  const link = catalogue[rule].lesson;
  return `${link.lesson}#${link.anchor}`;
}
