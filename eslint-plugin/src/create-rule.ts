import type { TSESLint, TSESTree } from '@typescript-eslint/utils';

import { catalogue, lessonTarget, type RuleName } from './catalogue.js';
import { SettingsError } from './settings.js';
import { analysisFor } from './lint/file-analysis.js';

const repository = 'https://github.com/idempotency-toolkit/idempotency-toolkit';

export function ruleDocsUrl(name: string): string {
  return `${repository}/blob/main/eslint-plugin/docs/rules/${name}.md`;
}

export interface IdempotencyRuleDocs {
  description: string;
  recommended: boolean;
  url: string;
  /** `<lesson>#<anchor>` of the lesson place that teaches this rule. */
  lesson: string;
}

export type IdempotencyRule<
  MessageIds extends string,
  Options extends readonly unknown[],
  Name extends RuleName = RuleName,
> = TSESLint.RuleModule<MessageIds, Options, IdempotencyRuleDocs> & {
  name: Name;
  meta: { docs: IdempotencyRuleDocs };
};

interface RuleDefinition<MessageIds extends string, Options extends readonly unknown[], Name extends RuleName> {
  name: Name;
  /** Everything but the docs, which come from the catalogue. */
  meta: Omit<TSESLint.RuleMetaData<MessageIds, IdempotencyRuleDocs, Options>, 'docs'>;
  defaultOptions: Options;
  create: (context: Readonly<TSESLint.RuleContext<MessageIds, Options>>, options: Options) => TSESLint.RuleListener;
}

/*
 * The plugin's promise is that no source file ever makes ESLint crash: an analysis failure is
 * contained and the rest of the file still linted. Tests and the robustness script set
 * IDEMPOTENCY_LINT_STRICT=1 so that such failures surface there, with the file that caused them.
 */

function strict(): boolean {
  return typeof process !== 'undefined' && process.env?.IDEMPOTENCY_LINT_STRICT === '1';
}

let warned = false;

/** Keeps ESLint running, and says once per process that a file was not fully analysed. */
function contain(error: unknown, filename: string): void {
  // A malformed setting is the user's to fix: it stops the lint, naming the setting.
  if (strict() || error instanceof SettingsError) throw error;
  if (warned || typeof process === 'undefined' || typeof process.emitWarning !== 'function') return;
  warned = true;
  const reason = error instanceof Error ? error.message : String(error);
  process.emitWarning(
    `eslint-plugin-idempotency could not fully analyse ${filename} (${reason}). Linting went on; please report this with the code that caused it.`,
  );
}

/** ESLint calls a listener with a node, or a code path event's two or three arguments: no rest array per call. */
type Listener = (first?: unknown, second?: unknown, third?: unknown) => void;

function guarded(listener: Listener, filename: string): Listener {
  return (first, second, third) => {
    try {
      listener(first, second, third);
    } catch (error) {
      contain(error, filename);
    }
  };
}

function mergeOptions<Options extends readonly unknown[]>(defaults: Options, given: readonly unknown[]): Options {
  return defaults.map((value, index) => {
    const override = given[index];
    if (isPlainObject(value) && isPlainObject(override)) return { ...value, ...override };
    return override === undefined ? value : override;
  }) as unknown as Options;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The rule's context, with findings in code nothing runs held back: a class's method that nothing
 * in the project calls has no effect to repeat until something does.
 */
function reportingWhatRuns<MessageIds extends string, Options extends readonly unknown[]>(
  context: Readonly<TSESLint.RuleContext<MessageIds, Options>>,
): Readonly<TSESLint.RuleContext<MessageIds, Options>> {
  const report = (descriptor: TSESLint.ReportDescriptor<MessageIds>) => {
    if ('node' in descriptor && analysisFor(context).inUncalledMethod(descriptor.node as TSESTree.Node)) return;
    context.report(descriptor);
  };
  return Object.create(context, { report: { value: report } }) as Readonly<TSESLint.RuleContext<MessageIds, Options>>;
}

/**
 * Builds a rule the way every rule here is built: description, docs URL and lesson from the
 * catalogue, options merged over their defaults, and listeners that never let an analysis
 * error escape.
 */
export function createRule<MessageIds extends string, Options extends readonly unknown[], Name extends RuleName>(
  definition: RuleDefinition<MessageIds, Options, Name>,
): IdempotencyRule<MessageIds, Options, Name> {
  const { name, meta, defaultOptions, create } = definition;
  return {
    name,
    defaultOptions,
    meta: {
      ...meta,
      docs: {
        description: catalogue[name].description,
        recommended: true,
        url: ruleDocsUrl(name),
        lesson: lessonTarget(name),
      },
    },
    create(context) {
      let listeners: TSESLint.RuleListener;
      try {
        listeners = create(reportingWhatRuns(context), mergeOptions(defaultOptions, context.options));
      } catch (error) {
        contain(error, context.filename);
        return {};
      }
      const safe: Record<string, unknown> = {};
      for (const [selector, listener] of Object.entries(listeners)) {
        if (typeof listener === 'function') safe[selector] = guarded(listener as Listener, context.filename);
      }
      return safe as TSESLint.RuleListener;
    },
  };
}
