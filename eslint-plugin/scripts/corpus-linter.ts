import { lstatSync, readdirSync } from 'node:fs';
import path from 'node:path';

import tsParser from '@typescript-eslint/parser';
import { Linter } from 'eslint';

import plugin from '../src/index.js';

/**
 * Lints arbitrary source files with the plugin's rules, one at a time, telling apart files that do
 * not parse (not the plugin's business) from exceptions raised by the rules (always a bug). The
 * robustness script, its test and the benchmark share it.
 */

export type Parsing = 'typescript' | 'module' | 'script';

export interface FileOutcome {
  /** The file did not parse as JavaScript or TypeScript; nothing was linted. */
  unparseable?: string;
  /** A rule threw: the message and the rule, if ESLint named it. */
  crash?: string;
  findings: { ruleId: string; line: number; message: string }[];
}

type LintedPlugin = { rules: Record<string, unknown> };

function configs(withRules: boolean, baseline: Linter.Config[], linted: LintedPlugin): Linter.Config[] {
  const rules = withRules
    ? Object.fromEntries(Object.keys(linted.rules).map((name) => [`idempotency/${name}`, 'error' as const]))
    : {};
  return [
    ...baseline,
    { files: ['**/*.{js,jsx,mjs}'], languageOptions: { sourceType: 'module', ecmaVersion: 'latest' } },
    { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', ecmaVersion: 'latest' } },
    { files: ['**/*.{ts,mts,cts,tsx}'], languageOptions: { parser: tsParser } },
    {
      files: ['**/*'],
      plugins: { idempotency: linted as unknown as NonNullable<Linter.Config['plugins']>[string] },
      rules,
      // Directives in third-party code name rules that are not loaded here; they are not the point.
      linterOptions: { noInlineConfig: true, reportUnusedDisableDirectives: 'off' },
    },
  ];
}

export class CorpusLinter {
  private readonly linter = new Linter({ configType: 'flat' });
  private readonly withRules: Linter.Config[];
  private readonly withoutRules: Linter.Config[];

  /**
   * `baseline`: rules that run in both cases, such as a project's usual recommended set.
   * `linted`: the plugin whose rules are measured (its sources by default, or its build).
   */
  constructor(baseline: Linter.Config[] = [], linted: LintedPlugin = plugin) {
    this.withRules = configs(true, baseline, linted);
    this.withoutRules = configs(false, baseline, linted);
  }

  /**
   * Lints `source` as `filename`; a `.js` file that is not a module is retried as a script.
   * `stats`: given ESLint's own times of the lint, as `eslint --stats` reports them.
   */
  lint(source: string, filename: string, withRules = true, stats?: (times: LintTimes) => void): FileOutcome {
    const config = withRules ? this.withRules : this.withoutRules;
    // Only the name matters to the config; a full path outside the working directory (or inside
    // node_modules, which ESLint ignores by default) would leave the file unmatched and unlinted.
    let name = path.basename(filename);
    for (let attempt = 0; attempt < 2; attempt += 1) {
      let messages: Linter.LintMessage[];
      try {
        messages = stats
          ? this.linter.verifyAndFix(source, config, { filename: name, fix: false, stats: true } as Linter.FixOptions)
              .messages
          : this.linter.verify(source, config, { filename: name });
      } catch (error) {
        return { crash: error instanceof Error ? error.message : String(error), findings: [] };
      }
      const fatal = messages.find((message) => message.fatal);
      if (!fatal) {
        if (stats) stats(timesOf(this.linter));
        return {
          findings: messages
            .filter((message) => message.ruleId?.startsWith('idempotency/'))
            .map((message) => ({ ruleId: message.ruleId!, line: message.line, message: message.message })),
        };
      }
      // Many packages ship CommonJS in .js files, which is not valid as a module (e.g. `with`, octal escapes).
      if (attempt === 0 && name.endsWith('.js')) {
        name = `${name.slice(0, -3)}.cjs`;
        continue;
      }
      return { unparseable: fatal.message, findings: [] };
    }
    return { findings: [] };
  }
}

/** ESLint's times for one lint (one pass, no fixes): the whole, and each rule's listeners. */
export interface LintTimes {
  total: number;
  rules: Record<string, number>;
}

function timesOf(linter: Linter): LintTimes {
  const pass = linter.getTimes().passes[0];
  return {
    total: pass?.total ?? 0,
    rules: Object.fromEntries(Object.entries(pass?.rules ?? {}).map(([rule, time]) => [rule, time.total])),
  };
}

const sourceFile = /\.(c|m)?[jt]sx?$/;

/** Every .js/.ts file below `directory` (not following links), in a stable order. */
export function sourceFilesBelow(directory: string): string[] {
  const files: string[] = [];
  const stack = [directory];
  while (stack.length > 0) {
    const current = stack.pop()!;
    let entries: string[];
    try {
      entries = readdirSync(current);
    } catch {
      continue;
    }
    for (const entry of entries) {
      const full = path.join(current, entry);
      let stats;
      try {
        // Links are the workspace's own packages (and loops); only installed code is read.
        stats = lstatSync(full);
      } catch {
        continue;
      }
      if (stats.isDirectory()) stack.push(full);
      else if (stats.isFile() && sourceFile.test(entry)) files.push(full);
    }
  }
  return files.sort();
}
