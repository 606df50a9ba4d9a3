import type { TSESTree } from '@typescript-eslint/utils';

import type { FileContext } from '../../analysis/context/file-context.js';
import { words } from '../../analysis/naming/names.js';
import { addedFields, type DataOperation } from '../../analysis/operations/index.js';
import { takesLock } from '../../analysis/contract/operation.js';
import type { OriginTracer } from '../../analysis/origin/origin.js';
import type { ProviderCall } from '../../analysis/keys/provider-calls.js';
import { columnName, type SchemaModel } from '../../analysis/schema/model.js';

/** What settles a repeat: a claim of the delivery, a unique key the write lands on, a lock, a provider's idempotency key. */
export type GuardKind = 'claim' | 'unique-key' | 'lock' | 'caught-duplicate' | 'idempotency-key' | 'checked-state';

/**
 * What one operation or provider call means for a repeat: an effect that adds (a second run adds
 * again), a boundary that settles repeats (with the key it settles them on, when known), something
 * the analysis cannot judge, or nothing.
 */
export type Verdict =
  | { kind: 'effect'; node: TSESTree.Node; does: string; repeat: string }
  | { kind: 'boundary'; by: GuardKind; key?: readonly string[] }
  | { kind: 'unknown' }
  | undefined;

/** Quantities that a repeat adds to twice: money, credit, stock, usage. Counters of views, attempts or errors are metrics. */
const quantityWords =
  /^(amount|amounts|balance|balances|credit|credits|point|points|quantity|qty|stock|inventory|total|usage|used|minutes|seconds|hours|tokens|seats|units|sold|spent|earned|earnings|revenue|paid|payout|payouts|bonus|reward|rewards|coins|gems|diamonds|cents|funds|deposit|deposits|withdrawn|owed|due|debt|pending|available|reserved|allocated|remaining|limit|quota)$/;

/** Rows a repeat duplicates harmlessly or that record the delivery itself: logs, audit trails, histories, metrics. */
const recordTables =
  /(^|_)(logs?|audits?|audit_trail|history|histories|activity|activities|events?|traces?|metrics?|stats?|statistics|analytics|notifications?|webhooks?|deliveries|attempts?|errors?|failures?)(_|$)/;

/** A rate limiter's window or a count of tries: `rate_limit:*`, `login_attempts`. A repeat only tightens it for a while. */
const meteringWords = /^(rate|ratelimit|throttle|throttling|window|attempt|attempts|retry|retries|hits|requests)$/;

function quantity(name: string): boolean {
  const parts = words(name);
  return parts.some((word) => quantityWords.test(word)) && !parts.some((word) => meteringWords.test(word));
}

/** An increment of a quantity, an upsert that adds, or an insert no business key protects. */
export function operationVerdict(
  operation: DataOperation,
  module: FileContext,
  tracer: OriginTracer,
  schema: () => SchemaModel,
): Verdict {
  const added = addedFields(operation, module);
  if (added && (operation.kind === 'update' || operation.kind === 'upsert')) {
    const quantities = added.filter(quantity);
    if (quantities.length > 0) {
      // A label that names what it adds to (a Redis INCRBY of its key) says it all.
      const does = operation.label.includes(`'${quantities[0]}'`)
        ? `adds with ${operation.label}`
        : `adds to '${quantities[0]}' (${operation.label})`;
      return { kind: 'effect', node: operation.node, does, repeat: 'adds it again' };
    }
    // A counter of views or attempts: a metric, not an effect.
    return operation.kind === 'upsert'
      ? { kind: 'boundary', by: 'unique-key', key: operation.conflictTarget }
      : undefined;
  }
  if (takesLock(operation)) return { kind: 'boundary', by: 'lock' };
  if (operation.claim) return { kind: 'boundary', by: 'claim', key: operation.conflictTarget };
  if (operation.arbitrated) return { kind: 'boundary', by: 'unique-key', key: operation.conflictTarget };
  if (operation.kind !== 'insert') return undefined;
  const target = operation.targets[0];
  if (!target || recordTables.test(columnName(target))) return undefined;
  const model = schema();
  if (!model.knows(target) || !model.keysSettled(target) || operation.fieldsComplete === false)
    return { kind: 'unknown' };
  const written = new Map(operation.fields.map((field) => [columnName(field.name), field]));
  for (const key of model.uniqueKeys(target)) {
    if (key.partial || !key.columns.every((column) => written.has(column))) continue;
    // A key filled with a fresh id on every run never meets a second run's row.
    const fresh = key.columns.every((column) => {
      const field = written.get(column)!;
      const facts = field.values.flatMap((value) => tracer.scalars(value));
      return (
        (facts.length > 0 && facts.every((fact) => fact.kind === 'minted')) ||
        field.functions.some((name) => /uuid|random/.test(name))
      );
    });
    if (!fresh) return { kind: 'boundary', by: 'unique-key', key: key.columns };
  }
  const name = model.declaration(target)?.name ?? target;
  return { kind: 'effect', node: operation.node, does: `inserts into ${name}`, repeat: 'inserts a second row' };
}

const doing: Record<ProviderCall['effect'], { does: string; repeat: string }> = {
  charge: { does: 'charges through', repeat: 'charges again' },
  refund: { does: 'refunds through', repeat: 'refunds again' },
  transfer: { does: 'transfers money through', repeat: 'transfers again' },
  payout: { does: 'pays out through', repeat: 'pays out again' },
  ledger: { does: 'adds a balance entry through', repeat: 'adds a second entry' },
  usage: { does: 'records usage with', repeat: 'records it again' },
  email: { does: 'sends an email through', repeat: 'sends it again' },
  sms: { does: 'sends an SMS through', repeat: 'sends it again' },
  push: { does: 'sends a push notification through', repeat: 'sends it again' },
  post: { does: 'posts through', repeat: 'posts it again' },
};

/** A provider call that moves money or sends: an effect unless it carries the provider's idempotency field. */
export function providerVerdict(call: ProviderCall): Verdict {
  if (call.keyed) return { kind: 'boundary', by: 'idempotency-key' };
  const { does, repeat } = doing[call.effect];
  return { kind: 'effect', node: call.node, does: `${does} ${call.provider.label} (${call.label})`, repeat };
}
