import type { TSESTree } from '@typescript-eslint/utils';

import {
  memberPath,
  normaliseTarget,
  sqlOperations,
  type AdapterFile,
  type BrokerAdapter,
  type DataAdapter,
  type DataOperation,
  type LibraryAdapter,
  type MemberSpec,
  type ShapeSpec,
  type SqlCalls,
} from '../analysis/index.js';
import { sql } from './sql.js';

/** What a team declares in `settings.idempotency` (validated against `settingsSchema` first). */
export interface IdempotencySettings {
  /** `{ call: 'bus.subscribe', handler: 1, delivery: ['deliveryId', 'headers.attempt'] }` */
  consumers?: { call: string; handler: number; delivery?: string[] }[];
  /** `{ call: 'db.run', sql: 0, params: 1 }` */
  sql?: { call: string; sql: number; params?: number }[];
  /** `{ call: 'inbox.claim', key: 1, returns: 'claimed' }` */
  claims?: { call: string; key: number; table?: string; returns?: 'claimed' | 'duplicate' }[];
  /** `['db/schema.prisma', 'db/migrations']`: where the schema is, when it is not where the libraries keep it. */
  schema?: string[];
}

function split(call: string): { receiver: string; method: string } {
  const dot = call.lastIndexOf('.');
  return dot < 0 ? { receiver: '', method: call } : { receiver: call.slice(0, dot), method: call.slice(dot + 1) };
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The same call through `this` (`this.bus.subscribe`) is the same wrapper. */
function receiverPattern(receiver: string): RegExp {
  return new RegExp(`^(this\\.)?${escape(receiver)}$`);
}

function calledAs(node: TSESTree.CallExpression, calls: ReadonlyMap<string, unknown>): string | undefined {
  const path = memberPath(node.callee)?.join('.');
  if (path === undefined) return undefined;
  return calls.has(path) ? path : path.startsWith('this.') && calls.has(path.slice(5)) ? path.slice(5) : undefined;
}

/**
 * The shapes of a declared delivery: `['deliveryId', 'headers.attempt']` makes `deliveryId` and
 * `headers.attempt` its identity; every other member is content, judged by its name.
 */
function deliveryShapes(index: number, paths: readonly string[]): Record<string, ShapeSpec> {
  const shapes: Record<string, ShapeSpec> = {};
  const shapeOf = (prefix: string): Record<string, MemberSpec> => {
    const local = prefix === '' ? `delivery-${index}` : `delivery-${index}.${prefix}`;
    shapes[local] ??= { members: {} };
    return shapes[local].members as Record<string, MemberSpec>;
  };
  for (const path of paths) {
    const parts = path.split('.');
    for (let depth = 0; depth < parts.length; depth += 1) {
      const prefix = parts.slice(0, depth).join('.');
      const members = shapeOf(prefix);
      const name = parts[depth];
      if (depth === parts.length - 1) members[name] = { identity: `the delivery's ${path}` };
      else members[name] = { shape: `settings:delivery-${index}.${parts.slice(0, depth + 1).join('.')}` };
    }
  }
  shapeOf('');
  return shapes;
}

function consumersAdapter(consumers: NonNullable<IdempotencySettings['consumers']>): BrokerAdapter {
  const shapes: Record<string, ShapeSpec> = {};
  const handlers: BrokerAdapter['handlers'] = consumers.map((consumer, index) => {
    Object.assign(shapes, deliveryShapes(index, consumer.delivery ?? []));
    const { receiver, method } = split(consumer.call);
    return {
      call: method,
      argument: consumer.handler,
      shape: `settings:delivery-${index}`,
      evidence: { receiver: receiverPattern(receiver) },
    };
  });
  return { kind: 'broker', name: 'settings', modules: [], shapes, handlers };
}

function claimOperation(
  node: TSESTree.CallExpression,
  claim: NonNullable<IdempotencySettings['claims']>[number],
): DataOperation | undefined {
  const key = node.arguments[claim.key];
  if (!key || key.type === 'SpreadElement') return undefined;
  const { receiver, method } = split(claim.call);
  return {
    kind: 'upsert',
    library: 'settings',
    targets: [normaliseTarget(claim.table ?? (receiver || method))],
    node,
    label: `the claim ${claim.call}()`,
    fields: [{ name: 'key', values: [key], functions: [] }],
    conflictTarget: ['key'],
    arbitrated: true,
    skipsDuplicates: true,
    claim: claim.returns ?? 'claimed',
  };
}

function dataAdapter(settings: IdempotencySettings): DataAdapter {
  const wrappers = new Map(
    (settings.sql ?? []).map((wrapper) => [wrapper.call, { sql: wrapper.sql, params: wrapper.params }]),
  );
  const claims = new Map((settings.claims ?? []).map((claim) => [claim.call, claim]));
  const calls: SqlCalls = { methods: new Set(), restParameters: new Set(), wrappers };
  const methods = new Set([...wrappers.keys(), ...claims.keys()].map((call) => split(call).method));
  return {
    kind: 'data',
    name: 'settings',
    label: 'SQL',
    methods,
    recognise(node, file: AdapterFile) {
      if (node.type !== 'CallExpression') return undefined;
      const claim = calledAs(node, claims);
      if (claim) return claimOperation(node, claims.get(claim)!);
      return calledAs(node, wrappers) ? sqlOperations(node, file.scopeOf, calls, 'settings') : undefined;
    },
    remedy: sql.remedy,
  };
}

/** The adapters a team's settings declare. */
export function settingsAdapters(settings: IdempotencySettings): LibraryAdapter[] {
  const adapters: LibraryAdapter[] = [];
  if (settings.consumers?.length) adapters.push(consumersAdapter(settings.consumers));
  if (settings.sql?.length || settings.claims?.length) adapters.push(dataAdapter(settings));
  if (settings.schema?.length) adapters.push({ kind: 'values', name: 'settings', schemaPaths: settings.schema });
  return adapters;
}
