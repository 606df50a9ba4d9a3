import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface ExpectedFinding {
  /** Path relative to the examples folder, with forward slashes. */
  file: string;
  /** 1-based, as the Problems panel shows it. */
  line: number;
  rule: string;
}

const marker = /\/\/\s*flagged:\s*([a-z0-9-]+(?:\s*,\s*[a-z0-9-]+)*)\s*$/;
const sourceFile = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * What the Problems panel must show, read from the examples themselves: every line that must be
 * flagged ends with `// flagged: <rule-id>` (several ids may be separated by commas). Reading
 * the markers keeps the test right when the examples change.
 */
export function expectedFindings(examplesRoot: string): ExpectedFinding[] {
  const found: ExpectedFinding[] = [];
  for (const file of sourceFiles(examplesRoot)) {
    const lines = readFileSync(path.join(examplesRoot, file), 'utf8').split(/\r?\n/);
    lines.forEach((text, index) => {
      const match = marker.exec(text);
      if (!match) return;
      for (const rule of match[1].split(',')) found.push({ file, line: index + 1, rule: rule.trim() });
    });
  }
  return found.sort(compareFindings);
}

export function compareFindings(a: ExpectedFinding, b: ExpectedFinding): number {
  return a.file.localeCompare(b.file) || a.line - b.line || a.rule.localeCompare(b.rule);
}

function sourceFiles(root: string, relative = ''): string[] {
  return readdirSync(path.join(root, relative), { withFileTypes: true }).flatMap((entry) => {
    const child = relative ? `${relative}/${entry.name}` : entry.name;
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(root, child);
    return sourceFile.test(entry.name) ? [child] : [];
  });
}
