/**
 * The plugin's rule ids as the editor sees them. Rule ids are fixed across the project
 * (settings keys, eslint-disable comments and lesson links all name them), so they are
 * listed here once rather than discovered at run time: settings must exist before the
 * lint engine, which is loaded lazily, is ready.
 */
export const ruleNames = ['no-delivery-id-effect-key', 'no-amount-effect-key', 'no-check-then-insert'] as const;

export type RuleName = (typeof ruleNames)[number];

export const pluginPrefix = 'idempotency';

/** Diagnostics of this extension carry this source, like `eslint` for the ESLint extension. */
export const diagnosticSource = 'idempotency';

/** Opens a rule's page in the lesson panel; a diagnostic's code links to it. */
export const showRulePageCommand = 'idempotency.showRulePage';

export function isRuleName(value: string): value is RuleName {
  return (ruleNames as readonly string[]).includes(value);
}

/** `idempotency/no-amount-effect-key` → `no-amount-effect-key`; anything else → undefined. */
export function ruleNameOf(qualifiedRuleId: string | null | undefined): RuleName | undefined {
  if (!qualifiedRuleId?.startsWith(`${pluginPrefix}/`)) return undefined;
  const name = qualifiedRuleId.slice(pluginPrefix.length + 1);
  return isRuleName(name) ? name : undefined;
}

export function qualifiedRuleId(rule: RuleName): string {
  return `${pluginPrefix}/${rule}`;
}
