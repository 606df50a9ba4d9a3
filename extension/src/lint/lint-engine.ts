import type { Linter } from 'eslint';
import {
  openDocumentsSetting,
  SettingsError,
  type MappedEntryPoint,
  type ProjectReading,
} from 'eslint-plugin-idempotency';

import { pluginPrefix, qualifiedRuleId, ruleNameOf, type RuleName } from '../rules.js';
import type { IncrementalParsing } from './incremental/incremental-parsing.js';
import type { ParseOutcome } from './incremental/parse-memory.js';
import { parseSource } from './parse-source.js';

/** One text edit in ESLint's terms: replace the UTF-16 offsets `range` of the text by `text`. */
export interface OffsetEdit {
  range: readonly [number, number];
  text: string;
}

export interface LintProblem {
  rule: RuleName;
  message: string;
  /** 1-based, as ESLint reports them. */
  line: number;
  column: number;
  endLine?: number;
  endColumn?: number;
  fix?: OffsetEdit;
  suggestions: { description: string; edit: OffsetEdit }[];
  /** Where the finding comes from (1-based): where its value was read, the check it is about; when the rule says. */
  origin?: Origin;
}

export interface Origin {
  line: number;
  column: number;
  /** The file it is in (an absolute path) when that is another module than the linted one: an imported helper. */
  file?: string;
  /** What is there, in the rule's words: "the value is read here", "the check is here". */
  note?: string;
}

/** An entry point of the file, with the findings inside its handler. */
export interface EntryPointListing extends MappedEntryPoint {
  findings: { rule: RuleName; message: string; line: number; column: number }[];
}

export type LintReport =
  | {
      kind: 'linted';
      problems: LintProblem[];
      durationMs: number;
      parse?: ParseOutcome;
      read?: ProjectReading;
      /** When the request asks for them. */
      entryPoints?: EntryPointListing[];
    }
  /** Code the recommended config leaves alone, as `eslint` in CI does. */
  | { kind: 'not-service-code'; durationMs: number }
  /** The file does not parse; the language server already says so, so this is no finding of ours. */
  | { kind: 'unparseable'; reason: string; line: number; durationMs: number; parse?: ParseOutcome }
  /** Linting itself failed. The plugin promises never to throw; this is the net under that promise. */
  | { kind: 'failed'; reason: string; durationMs: number };

export interface LintRequest {
  text: string;
  /** A file name whose extension tells the parser what the text is (`.ts`, `.jsx`, …). */
  fileName: string;
  rules: readonly RuleName[];
  /**
   * Names the document the text belongs to, so that its next lint re-parses only what changed.
   * Without it every lint parses the whole text.
   */
  documentKey?: string;
  /**
   * The texts of the other open documents with unsaved changes, by file path. Analysis that reads
   * other files of the project (a schema, migrations, helper modules) reads these instead of the
   * copies on disk; rules find them in `context.settings[openDocumentsSetting]`.
   */
  openDocuments?: Readonly<Record<string, string>>;
  /** The team's declarations (`idempotency.declarations`), read as an ESLint config's `settings.idempotency`. */
  declarations?: Readonly<Record<string, unknown>>;
  /**
   * The workspace folder the file is in. The code the recommended config leaves alone (tests,
   * fixtures, seeds, migration scripts) is found by paths below it, as `eslint` finds it below
   * the project; without a folder every file is checked.
   */
  folder?: string;
  /** List the file's entry points too (for the view of them), as the plugin's `entryPointMap` finds them. */
  entryPoints?: boolean;
}

/** The ESLint setting under which the plugin finds the open documents' unsaved texts. */
export { openDocumentsSetting, type ProjectReading };

export interface RuleDocs {
  /** The rule's documentation page. */
  url?: string;
  /** `<lesson>#<anchor>`: where the lesson that teaches the rule opens. */
  lesson?: string;
}

export interface LintEngine {
  lint(request: LintRequest): LintReport;
  docsOf(rule: RuleName): RuleDocs;
  /** Drops what the engine keeps about a document (its last parse), when it closes. */
  forget(documentKey: string): void;
}

/** The parts of the ESLint plugin the engine uses; structural so tests can pass a small fake. */
export interface IdempotencyPlugin {
  rules: Record<string, { meta?: { docs?: { url?: string; lesson?: string } }; create?: unknown }>;
  configs?: { recommended?: { name?: string; ignores?: string[] }[] };
}

type ReportDescriptor = {
  messageId?: string;
  data?: Record<string, unknown>;
  node?: { loc?: { start: { line: number; column: number } } };
  loc?: { start?: { line: number; column: number }; line?: number; column?: number };
};
type RuleContextLike = { report(descriptor: ReportDescriptor): void };

/** `messageId@line:column` of a report, as ESLint's message for it will carry them (1-based). */
function reportKey(messageId: string | undefined, line: number, column: number): string {
  return `${messageId ?? ''}@${line}:${column}`;
}

/**
 * The plugin's rules, each seeing a context whose `report` also notes the `origin` a rule gives in
 * its data (`12:5`, where the value came from, and `originFile` when that is in another module):
 * ESLint's messages do not carry report data, and
 * the editor shows the origin as the diagnostic's related information.
 */
function notingOrigins(
  plugin: IdempotencyPlugin,
  origins: Map<string, Origin>,
  created: (listeners: unknown) => void,
): IdempotencyPlugin {
  const rules: IdempotencyPlugin['rules'] = {};
  for (const [name, rule] of Object.entries(plugin.rules)) {
    const create = rule.create;
    if (typeof create !== 'function') {
      rules[name] = rule;
      continue;
    }
    rules[name] = {
      ...rule,
      create(context: RuleContextLike) {
        const noting = Object.create(context, {
          report: {
            value(descriptor: ReportDescriptor) {
              const origin =
                typeof descriptor.data?.origin === 'string' ? /^(\d+):(\d+)$/.exec(descriptor.data.origin) : null;
              const start = descriptor.node?.loc?.start ?? descriptor.loc?.start;
              const note = typeof descriptor.data?.originNote === 'string' ? descriptor.data.originNote : undefined;
              const file = typeof descriptor.data?.originFile === 'string' ? descriptor.data.originFile : undefined;
              if (origin && start)
                origins.set(reportKey(descriptor.messageId, start.line, start.column + 1), {
                  line: Number(origin[1]),
                  column: Number(origin[2]),
                  ...(file ? { file } : {}),
                  ...(note ? { note } : {}),
                });
              context.report(descriptor);
            },
          },
        }) as RuleContextLike;
        const listeners = (create as (context: RuleContextLike) => unknown)(noting);
        created(listeners);
        return listeners;
      },
    };
  }
  return { ...plugin, rules };
}

export interface LintEngineParts {
  /** ESLint's Linter for a working directory, whose config patterns are matched below it. */
  linter: (cwd: string) => Linter;
  plugin: IdempotencyPlugin;
  /** espree and typescript-eslint's parser, each re-reading only what changed in a document it has parsed before. */
  parsing: IncrementalParsing;
  /** The plugin's map of a file's entry points, run as a rule of the engine's own when a request asks for it. */
  entryPointMap?: (context: never, found: (entries: MappedEntryPoint[]) => void) => object;
  /** What the plugin's last lint read of the project besides the file it linted: its schema, the helpers it followed. */
  reading?: (filename: string) => ProjectReading;
  now?: () => number;
}

/** The engine's own plugin, under a prefix of its own: the rule that maps entry points. */
const mapPrefix = 'idempotency-map';

const allSourceFiles = ['**/*.{js,mjs,cjs,jsx,ts,mts,cts,tsx}'];

/**
 * Runs the plugin on one text, in-process, with ESLint's `Linter` and a flat config the
 * engine builds itself: the editor must never load configuration or code from the workspace
 * (untrusted folders are supported), and the team's own ESLint setup is not ours to run.
 * The engine parses the text itself, with the parsers and options of the plugin's recommended
 * config, and hands ESLint the result (see `parseSource`).
 */
export function createLintEngine(parts: LintEngineParts): LintEngine {
  const { parsing } = parts;
  // Filled by the rules' reports during one lint, read when ESLint's messages come back.
  const origins = new Map<string, Origin>();
  let rulesCreated = false;
  // The node types the listeners of one lint's rules are for, noted as ESLint creates the rules
  // (none noted yet: nothing says what to leave out); undefined once a selector asks more than
  // the node itself (its ancestors, its siblings).
  let listened: Set<string> | undefined;
  let noted = false;
  const noteListeners = (listeners: unknown) => {
    noted = true;
    for (const selector of typeof listeners === 'object' && listeners !== null ? Object.keys(listeners) : []) {
      // `CallExpression`, `MemberExpression[computed=true]`, `Program:exit`.
      const type = /^([A-Za-z]+)(?:\[[^\]]*\])*(?::exit)?$/.exec(selector)?.[1];
      if (type === undefined) listened = undefined;
      else listened?.add(type);
    }
  };
  const plugin = notingOrigins(parts.plugin, origins, (listeners) => {
    rulesCreated = true;
    noteListeners(listeners);
  });
  const now = parts.now ?? (() => performance.now());
  const ignores = parts.plugin.configs?.recommended?.find((config) => config.ignores)?.ignores ?? [];
  // One Linter per workspace folder, so that the recommended config's patterns match below it.
  const linters = new Map<string, Linter>();
  const linterFor = (cwd: string) => {
    let linter = linters.get(cwd);
    if (!linter) linters.set(cwd, (linter = parts.linter(cwd)));
    return linter;
  };

  // The declarations arrive as a new copy with every lint. The plugin builds its adapters once
  // per settings object (and keys what it reads of other modules by them), so the same
  // declarations (each folder's own, in a multi-root workspace) are handed over as the same object.
  const declared = new Map<string, Readonly<Record<string, unknown>>>();
  const stable = (declarations: Readonly<Record<string, unknown>> | undefined) => {
    if (declarations === undefined) return undefined;
    const text = JSON.stringify(declarations);
    let known = declared.get(text);
    if (!known) {
      if (declared.size >= 32) declared.clear();
      declared.set(text, (known = declarations));
    }
    return known;
  };

  // ESLint normalises a config array on every call (a fraction of a millisecond for this one),
  // so it is simply built for each lint.
  // Filled by the map rule during a lint that asks for entry points.
  let mapped: MappedEntryPoint[] | undefined;
  const entryPointMap = parts.entryPointMap;
  const mapPlugin = entryPointMap && {
    rules: {
      'entry-points': {
        meta: { type: 'suggestion' as const, schema: [] },
        create: (context: never) => {
          const listeners = entryPointMap(context, (entries) => {
            mapped = entries;
          });
          noteListeners(listeners);
          return listeners;
        },
      },
    },
  };
  const configFor = (
    rules: readonly RuleName[],
    openDocuments: Readonly<Record<string, string>>,
    declarations: Readonly<Record<string, unknown>> | undefined,
    inFolder: boolean,
    withMap: boolean,
  ): Linter.Config[] => [
    {
      files: allSourceFiles,
      ...(inFolder && ignores.length > 0 ? { ignores: [...ignores] } : {}),
      settings: { [openDocumentsSetting]: openDocuments, ...(declarations ? { idempotency: declarations } : {}) },
      plugins: {
        [pluginPrefix]: plugin as unknown as NonNullable<Linter.Config['plugins']>[string],
        ...(withMap && mapPlugin
          ? { [mapPrefix]: mapPlugin as unknown as NonNullable<Linter.Config['plugins']>[string] }
          : {}),
      },
      // Comments that disable rules of other plugins are normal in real code; they are not ours to judge.
      linterOptions: { reportUnusedDisableDirectives: 'off', reportUnusedInlineConfigs: 'off' },
      rules: {
        ...Object.fromEntries(rules.map((rule) => [qualifiedRuleId(rule), 'error'])),
        ...(withMap && mapPlugin ? { [`${mapPrefix}/entry-points`]: 'error' } : {}),
      },
    },
  ];

  return {
    lint({ text, fileName, rules, documentKey, openDocuments = {}, declarations, folder, entryPoints }) {
      const started = now();
      const elapsed = () => now() - started;
      const problems: LintProblem[] = [];
      let parse: ParseOutcome | undefined;
      try {
        const source = parseSource(text, fileName, parsing, documentKey);
        parse = source.outcome;
        if (!source.ok)
          return { kind: 'unparseable', reason: source.message, line: source.line, durationMs: elapsed(), parse };
        origins.clear();
        rulesCreated = false;
        listened = new Set();
        noted = false;
        mapped = undefined;
        const messages = linterFor(folder ?? '/').verify(
          source.sourceCode.visitingOnly(() => (noted ? listened : undefined)),
          configFor(rules, openDocuments, stable(declarations), folder !== undefined, entryPoints === true),
          fileName,
        );
        if (!rulesCreated && rules.length > 0 && !mapped) return { kind: 'not-service-code', durationMs: elapsed() };
        for (const message of messages) {
          // Inline `/* eslint other-rule: … */` comments name rules this engine does not load;
          // ESLint reports those against the unknown rule, and they are not findings of ours.
          const rule = ruleNameOf(message.ruleId);
          if (rule)
            problems.push(
              toProblem(rule, message, origins.get(reportKey(message.messageId, message.line, message.column))),
            );
        }
      } catch (error) {
        return { kind: 'failed', reason: failureReason(error), durationMs: elapsed() };
      }
      const read = parts.reading?.(fileName);
      return {
        kind: 'linted',
        problems,
        durationMs: elapsed(),
        parse,
        ...(read ? { read } : {}),
        ...(entryPoints ? { entryPoints: listEntryPoints(mapped ?? [], problems) } : {}),
      };
    },
    docsOf(rule) {
      const docs = plugin.rules[rule]?.meta?.docs;
      return { url: docs?.url, lesson: docs?.lesson };
    },
    forget(documentKey) {
      parsing.memory.forget(documentKey);
    },
  };
}

/** Why a lint failed, in the editor's terms: the declarations are its own setting here, not an ESLint config's. */
function failureReason(error: unknown): string {
  if (error instanceof SettingsError) return `The setting idempotency.declarations${error.where} ${error.problem}.`;
  return error instanceof Error ? error.message : String(error);
}

/** One of ESLint's messages in the editor's terms. */
export function toProblem(rule: RuleName, message: Linter.LintMessage, origin?: Origin): LintProblem {
  const problem: LintProblem = {
    rule,
    message: message.message,
    line: message.line,
    column: message.column,
    endLine: message.endLine,
    endColumn: message.endColumn,
    fix: message.fix ? { range: message.fix.range, text: message.fix.text } : undefined,
    suggestions: (message.suggestions ?? []).map((suggestion) => ({
      description: suggestion.desc,
      edit: { range: suggestion.fix.range, text: suggestion.fix.text },
    })),
  };
  // Added, not spread in first: V8 (Node 20) builds an object that starts with a spread very slowly.
  if (origin) problem.origin = origin;
  return problem;
}

/** Each entry point with the findings inside its handler, by the position ESLint reports them at. */
export function listEntryPoints(
  entries: readonly MappedEntryPoint[],
  problems: readonly LintProblem[],
): EntryPointListing[] {
  const after = (line: number, column: number, place: { line: number; column: number }) =>
    line > place.line || (line === place.line && column >= place.column);
  return entries.map((entry) => ({
    ...entry,
    findings: problems
      .filter(
        (problem) =>
          after(problem.line, problem.column, entry.start) && after(entry.end.line, entry.end.column, problem),
      )
      .map(({ rule, message, line, column }) => ({ rule, message, line, column })),
  }));
}
