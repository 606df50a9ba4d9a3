/**
 * The plugin's rule ids as the editor sees them, from the plugin's catalogue: plain data, so
 * settings can be read before the lint engine (loaded lazily) is ready.
 */
import { ruleNames, type RuleName } from 'eslint-plugin-idempotency/catalogue';

export { ruleNames, type RuleName };

export const pluginPrefix = 'idempotency';

/** Diagnostics of this extension carry this source, like `eslint` for the ESLint extension. */
export const diagnosticSource = 'idempotency';

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
