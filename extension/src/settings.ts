import path from 'node:path';

import { ruleNames, type RuleName } from './rules.js';

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
  const configuredRules = config.get<Record<string, unknown>>('rules') ?? {};
  const rules = Object.fromEntries(
    ruleNames.map((rule) => {
      const level = configuredRules[rule];
      return [rule, ruleLevels.includes(level as RuleLevel) ? (level as RuleLevel) : defaultRuleLevel];
    }),
  ) as Record<RuleName, RuleLevel>;

  return {
    enable: config.get<boolean>('enable') !== false,
    run: config.get<string>('run') === 'onSave' ? 'onSave' : 'onType',
    typingDelayMs: nonNegativeNumber(config.get<number>('typingDelay'), 300),
    rules,
    deferToProjectEslint: config.get<boolean>('deferToProjectEslint') === true,
    maxFileSizeBytes: nonNegativeNumber(config.get<number>('maxFileSizeKB'), 512) * 1024,
    ...declarationsOf(config.get<unknown>('declarations'), folder),
    ...(folder === undefined ? {} : { folder }),
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
  return { declarations: { ...given, schema: schema.map((entry) => (typeof entry === 'string' ? path.resolve(folder, entry) : entry)) } };
}

function nonNegativeNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

export function enabledRules(settings: Settings): RuleName[] {
  return ruleNames.filter((rule) => settings.rules[rule] !== 'off');
}
