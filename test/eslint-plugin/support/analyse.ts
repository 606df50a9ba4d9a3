import tsParser from '@typescript-eslint/parser';
import type { TSESLint, TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';

import { analysisFor } from '../../../eslint-plugin/src/lint/file-analysis.js';
import type { DataOperation } from '../../../eslint-plugin/src/analysis/operations/index.js';
import { whenSqlParserReady } from '../../../eslint-plugin/src/analysis/sql/parser.js';
import { providerCallAt } from '../../../eslint-plugin/src/analysis/keys/provider-calls.js';
import { functionName } from '../../../eslint-plugin/src/analysis/origin/entry-points.js';
import { entryPointsAtExit } from '../../../eslint-plugin/src/lint/entry-points.js';

/**
 * Table tests of the shared analysis: what an adapter makes of a call, and where a value comes
 * from, asked of the very analysis the rules use, through ESLint's Linter on real parses.
 */

await whenSqlParserReady();
process.env.IDEMPOTENCY_LINT_STRICT = '1';

export interface OperationSummary {
  kind: DataOperation['kind'];
  library: DataOperation['library'];
  targets: string[];
  fields: string[];
  /** The columns a read matches on, when it shows them. */
  filters?: string[];
  conflictTarget?: string[];
  /** The fields an update adds to. */
  adds?: readonly string[];
  arbitrated: boolean;
  skipsDuplicates: boolean;
  claim?: DataOperation['claim'];
  /** It runs in a transaction the database serialises. */
  serialisable?: true;
  fix?: string;
}

function summary(operation: DataOperation): OperationSummary {
  return {
    kind: operation.kind,
    library: operation.library,
    targets: operation.targets,
    fields: operation.fields.map((field) => field.name),
    ...(operation.filters && operation.filters.length > 0
      ? { filters: operation.filters.map((field) => field.name) }
      : {}),
    ...(operation.conflictTarget ? { conflictTarget: operation.conflictTarget } : {}),
    ...(operation.adds && operation.adds.length > 0 ? { adds: operation.adds } : {}),
    arbitrated: operation.arbitrated,
    skipsDuplicates: operation.skipsDuplicates === true,
    ...(operation.claim ? { claim: operation.claim } : {}),
    ...(operation.serialisable ? { serialisable: true as const } : {}),
    ...(operation.fix ? { fix: operation.fix.edit } : {}),
  };
}

type Collector = (context: Readonly<TSESLint.RuleContext<string, readonly unknown[]>>) => TSESLint.RuleListener;

function run(code: string, collector: Collector, settings?: Record<string, unknown>, typescript = true): void {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts', '**/*.js'],
        ...(typescript ? { languageOptions: { parser: tsParser } } : {}),
        plugins: { probe: { rules: { collect: { meta: { schema: [] }, create: collector as never } } } },
        rules: { 'probe/collect': 'error' },
        ...(settings ? { settings: { idempotency: settings } } : {}),
      },
    ],
    typescript ? 'probe.ts' : 'probe.js',
  );
  const fatal = messages.find((message) => message.fatal || message.ruleId === 'probe/collect');
  if (fatal) throw new Error(fatal.message);
}

/** Every operation the analysis finds in `code`, in source order. */
export function operationsIn(code: string, settings?: Record<string, unknown>): OperationSummary[] {
  const found: OperationSummary[] = [];
  run(
    code,
    (context) => {
      const analysis = analysisFor(context);
      const visit = (node: TSESTree.CallExpression | TSESTree.TaggedTemplateExpression) => {
        found.push(...analysis.operationsAt(node).map(summary));
      };
      return { CallExpression: visit, TaggedTemplateExpression: visit };
    },
    settings,
  );
  return found;
}

/** What the argument of each `probe(…)` call in `code` is built from: `kind` or `kind:what` per fact. */
export function originsIn(code: string, settings?: Record<string, unknown>, typescript = true): string[][] {
  const found: string[][] = [];
  run(
    code,
    (context) => {
      const analysis = analysisFor(context);
      return {
        CallExpression(node) {
          if (node.callee.type !== 'Identifier' || node.callee.name !== 'probe' || !node.arguments[0]) return;
          found.push(
            analysis.tracer
              .scalars(node.arguments[0])
              .map((fact) => (fact.what ? `${fact.kind}:${fact.what}` : fact.kind)),
          );
        },
      };
    },
    settings,
    typescript,
  );
  return found;
}

/** Each provider call the analysis finds in `code`: `<provider> <effect> keyed|unkeyed|no key`. */
export function providerCallsIn(code: string): string[] {
  const found: string[] = [];
  run(code, (context) => {
    const analysis = analysisFor(context);
    return {
      CallExpression(node) {
        const call = providerCallAt(node, analysis.file);
        if (call)
          found.push(
            `${call.provider.label} ${call.effect} ${call.keyed === undefined ? 'no key' : call.keyed ? 'keyed' : 'unkeyed'}`,
          );
      },
    };
  });
  return found;
}

/** Each entry point of `code`, in source order: `<function name or line>: <label> (<kind>, <library>)`. */
export function entryPointsIn(code: string): string[] {
  const found: string[] = [];
  run(code, (context) =>
    entryPointsAtExit(analysisFor(context), (entries) => {
      for (const { fn, entry } of entries)
        found.push(
          `${functionName(fn) ?? `line ${fn.loc.start.line}`}: ${entry.label} (${entry.kind}, ${entry.library ?? 'none'})`,
        );
    }),
  );
  return found;
}

/** What `answer` says of each `probe(…)` call in `code`, in source order, asked of the analysis the rules use. */
export function probesIn<T>(
  code: string,
  answer: (probe: TSESTree.CallExpression, analysis: ReturnType<typeof analysisFor>) => T,
): T[] {
  const found: T[] = [];
  run(code, (context) => {
    const analysis = analysisFor(context);
    return {
      CallExpression(node: TSESTree.CallExpression) {
        if (node.callee.type === 'Identifier' && node.callee.name === 'probe') found.push(answer(node, analysis));
      },
    };
  });
  return found;
}
