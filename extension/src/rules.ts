/**
 * The plugin's rule ids as the editor sees them, from the plugin's catalogue: plain data, so
 * settings can be read before the lint engine (loaded lazily) is ready.
 */
import { catalogue, ruleNames, type RuleName } from 'eslint-plugin-idempotency/catalogue';

export { ruleNames, type RuleName };

/** A rule only `configs.strict` turns on is off here too unless the user turns it on. */
export function defaultLevelOn(rule: RuleName): boolean {
  return catalogue[rule].config === 'recommended';
}

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
