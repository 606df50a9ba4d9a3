/** The parts of a document the disable comments are placed by. */
export interface LineSource {
  lineCount: number;
  lineAt(line: number): { text: string };
}

/** Insert `text` at (line, character). */
export interface CommentEdit {
  line: number;
  character: number;
  text: string;
  /** Where in `text` the word `reason` stands after ` -- `, for the user to type over. */
  reasonAt?: number;
}

/** ESLint takes a reason after ` -- `: the directive asks for one, with the placeholder ready to type over. */
const reasonPlaceholder = ' -- reason';

function withReason(line: number, character: number, before: string, after = ''): CommentEdit {
  return {
    line,
    character,
    text: `${before}${reasonPlaceholder}${after}`,
    reasonAt: before.length + reasonPlaceholder.length - 'reason'.length,
  };
}

const nextLineDirective = /^(\s*)\/\/\s*eslint-disable-next-line\b(.*?)\s*$/;

/**
 * Silences one rule on one line the way ESLint users expect: a `// eslint-disable-next-line`
 * comment above it, indented like it, ending in ` -- reason` for the user to say why; if such a
 * comment is already there, the rule joins it instead of stacking a second comment.
 */
export function disableRuleForLine(document: LineSource, line: number, qualifiedRule: string): CommentEdit {
  const previous = line > 0 ? document.lineAt(line - 1).text : undefined;
  const existing = previous === undefined ? null : nextLineDirective.exec(previous);
  if (previous !== undefined && existing) {
    const listed = existing[2] ?? '';
    // ESLint allows a reason after ` -- `; the rule list ends there.
    const reasonAt = listed.indexOf('--');
    const ruleList = reasonAt === -1 ? listed : listed.slice(0, reasonAt);
    const rules = ruleList.split(/[,\s]+/).filter(Boolean);
    // A bare directive already silences every rule, and a listed rule is silenced already.
    if (rules.length > 0 && !rules.includes(qualifiedRule)) {
      const end = previous.trimEnd().length - listed.length + ruleList.trimEnd().length;
      // A directive with a reason keeps it; one without gets one asked for.
      return reasonAt === -1
        ? withReason(line - 1, end, `, ${qualifiedRule}`)
        : { line: line - 1, character: end, text: `, ${qualifiedRule}` };
    }
  }
  const indentation = /^\s*/.exec(document.lineAt(line).text)?.[0] ?? '';
  return withReason(line, 0, `${indentation}// eslint-disable-next-line ${qualifiedRule}`, '\n');
}

/**
 * Silences one rule for the whole file with a block comment on the first line, below a
 * shebang if there is one (a shebang must stay first for the file to run).
 */
export function disableRuleForFile(document: LineSource, qualifiedRule: string): CommentEdit {
  const firstLine = document.lineCount > 0 ? document.lineAt(0).text : '';
  const line = firstLine.startsWith('#!') ? 1 : 0;
  return { line, character: 0, text: `/* eslint-disable ${qualifiedRule} */\n` };
}
