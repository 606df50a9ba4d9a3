import tsParser from '@typescript-eslint/parser';
import type { TSESTree } from '@typescript-eslint/utils';
import { Linter } from 'eslint';

import type { FileContext } from '../../../eslint-plugin/src/analysis/context/file-context.js';
import { walk } from '../../../eslint-plugin/src/analysis/syntax/walk.js';
import { analysisFor } from '../../../eslint-plugin/src/lint/file-analysis.js';

/**
 * Asks a question of one file's analysis, as the rules would: `code` is linted with ESLint's
 * Linter (as `filename`, which may lie in a project on disk), and `ask` gets the file's context and
 * the calls of `code` by their callee's text (`read`, `this.ledger.record`), so a table of snippets
 * can name the nodes it asks about.
 */
export function inFile<T>(
  code: string,
  ask: (file: FileContext, call: (callee: string) => TSESTree.CallExpression) => T,
  filename = 'probe.ts',
): T {
  let answer: { value: T } | undefined;
  // A file on disk is linted from the root, so that the config covers it wherever it lies.
  const linter = new Linter({ configType: 'flat', ...(filename.startsWith('/') ? { cwd: '/' } : {}) });
  const messages = linter.verify(
    code,
    [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tsParser },
        plugins: {
          probe: {
            rules: {
              ask: {
                meta: { schema: [] },
                create: ((context: Parameters<typeof analysisFor>[0]) => ({
                  'Program:exit'() {
                    const file = analysisFor(context).file;
                    const call = (name: string) => {
                      let found: TSESTree.CallExpression | undefined;
                      walk(file.sourceAst, file.visitorKeys, (node) => {
                        if (!found && node.type === 'CallExpression' && file.code(node.callee) === name) found = node;
                        return !found;
                      });
                      if (!found) throw new Error(`no call of ${name}() in the snippet`);
                      return found;
                    };
                    answer = { value: ask(file, call) };
                  },
                })) as never,
              },
            },
          },
        },
        rules: { 'probe/ask': 'error' },
      },
    ],
    filename,
  );
  const fatal = messages.find((message) => message.fatal || message.ruleId === 'probe/ask');
  if (fatal) throw new Error(fatal.message);
  if (!answer) throw new Error('the snippet was not analysed');
  return answer.value;
}
