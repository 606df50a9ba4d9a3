import { describe, expect, it } from 'vitest';

import { disableRuleForFile, disableRuleForLine } from '../../extension/src/code-actions/disable-comments.js';

const linesOf = (text: string) => {
  const lines = text.split('\n');
  return { lineCount: lines.length, lineAt: (line: number) => ({ text: lines[line] }) };
};

const rule = 'idempotency/no-amount-effect-key';

describe('disable comments', () => {
  it('puts a new directive above the line with its indentation, asking for a reason after " -- "', () => {
    const edit = disableRuleForLine(linesOf('a();\n    const key = amount;'), 1, rule);
    expect(edit).toEqual({
      line: 1,
      character: 0,
      text: `    // eslint-disable-next-line ${rule} -- reason\n`,
      reasonAt: `    // eslint-disable-next-line ${rule} -- `.length,
    });
    expect(edit.text.slice(edit.reasonAt, edit.reasonAt! + 6)).toBe('reason');
  });

  it('adds the rule to a directive that is already there, before its reason', () => {
    const text = '  // eslint-disable-next-line no-console -- legacy  \n  const key = amount;';
    const edit = disableRuleForLine(linesOf(text), 1, rule);
    expect(edit).toEqual({ line: 0, character: '  // eslint-disable-next-line no-console'.length, text: `, ${rule}` });
  });

  it('adds the rule at the end of a directive without a reason, and asks for one', () => {
    const text = '// eslint-disable-next-line no-console\nconst key = amount;';
    expect(disableRuleForLine(linesOf(text), 1, rule)).toEqual({
      line: 0,
      character: 38,
      text: `, ${rule} -- reason`,
      reasonAt: `, ${rule} -- `.length,
    });
  });

  it('disables for the file on the first line, or below a shebang', () => {
    expect(disableRuleForFile(linesOf('const a = 1;'), rule)).toEqual({
      line: 0,
      character: 0,
      text: `/* eslint-disable ${rule} */\n`,
    });
    expect(disableRuleForFile(linesOf('#!/usr/bin/env node\nconst a = 1;'), rule)).toMatchObject({ line: 1 });
  });
});
