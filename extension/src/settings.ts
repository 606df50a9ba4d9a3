import path from 'node:path';

import { defaultLevelOn, ruleNames, type RuleName } from './rules.js';

export type RuleLevel = 'error' | 'warning' | 'information' | 'hint' | 'off';
export type RunMode = 'onType' | 'onSave';

export interface Settings {
  enable: boolean;
  run: RunMode;
  typingDelayMs: number;
  rules: Record<RuleName, RuleLevel>;
  deferToProjectEslint: boolean;
  maxFileSizeBytes: number;
  /**
   * The team's own consumer registrations, SQL wrappers and claim helpers, as an ESLint config's
   * `settings.idempotency` declares them; the plugin validates them. Schema paths are absolute.
   */
  declarations?: Readonly<Record<string, unknown>>;
  /** The workspace folder whose settings these are: the paths below it say which files are test code, and schema paths start there. */
  folder?: string;
  /** Globs of files the whole-workspace check leaves out, besides dependencies. */
  workspaceExclude: string[];
  /** Values that could not be read and were replaced by their defaults, in words for the log. */
  unreadable: string[];
}

/** Whether the extension checks files under these settings (not turned off, not left to the project's ESLint). */
export function checksFiles(settings: Settings): boolean {
  return settings.enable && !settings.deferToProjectEslint;
}

/** The subset of `vscode.WorkspaceConfiguration` that settings are read through. */
export interface ConfigurationReader {
  get<T>(section: string): T | undefined;
}

const ruleLevels: readonly RuleLevel[] = ['error', 'warning', 'information', 'hint', 'off'];
const defaultRuleLevel: RuleLevel = 'warning';

/**
 * Reads the `idempotency.*` settings, replacing anything malformed (hand-edited JSON can
 * hold any value) by its default, so a typo in settings.json never stops linting. The
 * declarations are the exception: the plugin checks them and says which one is wrong, as
 * ESLint would. `folder`: the workspace folder that relative schema paths are read from.
 */
export function readSettings(config: ConfigurationReader, folder?: string): Settings {
  const unreadable: string[] = [];
  const replaced = (name: string, value: unknown, fallback: unknown) =>
    unreadable.push(
      `The setting idempotency.${name} is ${JSON.stringify(value)}, which is not one of its values; ${JSON.stringify(fallback)} is used instead.`,
    );
  const configured = config.get<unknown>('rules');
  const configuredRules =
    configured !== null && typeof configured === 'object' ? (configured as Record<string, unknown>) : {};
  if (configured !== undefined && configured !== configuredRules) replaced('rules', configured, {});
  const rules = Object.fromEntries(
    ruleNames.map((rule) => {
      const level = configuredRules[rule];
      const fallback: RuleLevel = defaultLevelOn(rule) ? defaultRuleLevel : 'off';
      if (ruleLevels.includes(level as RuleLevel)) return [rule, level];
      if (level !== undefined) replaced(`rules.${rule}`, level, fallback);
      return [rule, fallback];
    }),
  ) as Record<RuleName, RuleLevel>;
  const choice = <T>(name: string, allowed: readonly T[], fallback: T): T => {
    const value = config.get<unknown>(name);
    if (value === undefined || allowed.includes(value as T)) return (value as T | undefined) ?? fallback;
    replaced(name, value, fallback);
    return fallback;
  };
  const number = (name: string, fallback: number): number => {
    const value = config.get<unknown>(name);
    if (value === undefined) return fallback;
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return value;
    replaced(name, value, fallback);
    return fallback;
  };

  const globs = (name: string): string[] => {
    const value = config.get<unknown>(name);
    if (value === undefined) return [];
    if (Array.isArray(value) && value.every((entry) => typeof entry === 'string')) return value;
    replaced(name, value, []);
    return [];
  };

  return {
    enable: choice('enable', [true, false], true),
    run: choice<RunMode>('run', ['onType', 'onSave'], 'onType'),
    typingDelayMs: number('typingDelay', 300),
    rules,
    deferToProjectEslint: choice('deferToProjectEslint', [true, false], false),
    maxFileSizeBytes: number('maxFileSizeKB', 512) * 1024,
    ...declarationsOf(config.get<unknown>('declarations'), folder),
    ...(folder === undefined ? {} : { folder }),
    workspaceExclude: globs('workspaceCheck.exclude'),
    unreadable,
  };
}

function declarationsOf(value: unknown, folder: string | undefined): Pick<Settings, 'declarations'> {
  if (value === undefined || value === null) return {};
  // Not an object: passed on as it is, for the plugin to say what is wrong with it.
  if (typeof value !== 'object' || Array.isArray(value)) return { declarations: value as Record<string, unknown> };
  const given = value as Record<string, unknown>;
  if (Object.keys(given).length === 0) return {};
  const schema = given.schema;
  if (!folder || !Array.isArray(schema)) return { declarations: given };
  return {
    declarations: {
      ...given,
      schema: (schema as unknown[]).map((entry) => (typeof entry === 'string' ? path.resolve(folder, entry) : entry)),
    },
  };
}

export function enabledRules(settings: Settings): RuleName[] {
  return ruleNames.filter((rule) => settings.rules[rule] !== 'off');
}
