import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import tsParser from '@typescript-eslint/parser';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

import { libraries } from '../../eslint-plugin/src/libraries/index.js';

/**
 * The plugin's sources stand on floors, lowest first: a file may import from its own floor or a
 * lower one, never from a higher one, and no chain of imports may come back to where it started.
 * A library's name belongs in libraries/ only, and adapters reach the analysis through its one
 * entry file. Adding a folder means giving it a floor here.
 */
const floors = [
  'analysis/syntax',
  'analysis/naming',
  'analysis/contract',
  'analysis/context',
  'analysis/sql',
  'analysis/operations',
  'analysis/project',
  'analysis/schema',
  'analysis/origin',
  'analysis/keys',
  'analysis/control',
  'analysis/work',
  'analysis/index.ts',
  'libraries',
  'catalogue.ts',
  'settings.ts',
  'lint',
  'create-rule.ts',
  'rules',
  'formatter.ts',
  'index.ts',
];

const src = fileURLToPath(new URL('../../eslint-plugin/src/', import.meta.url));
const analysisEntry = 'analysis/index.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(`${dir}${entry.name}/`)
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')
        ? [`${dir}${entry.name}`]
        : [],
  );
}

/** The floor of a file: the longest entry of `floors` its path starts with. */
function floorOf(file: string): number {
  let best = -1;
  let length = -1;
  floors.forEach((floor, index) => {
    if ((file === floor || file.startsWith(`${floor}/`)) && floor.length > length) {
      best = index;
      length = floor.length;
    }
  });
  return best;
}

/** Each source file (relative to src/) with the project files it imports, type-only imports included. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const name = relative(src, file);
    const targets = ts
      .preProcessFile(readFileSync(file, 'utf8'), true, true)
      .importedFiles.map((imported) => imported.fileName)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => relative(src, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
    graph.set(name, targets);
  }
  return graph;
}

/** The import loops of a graph: its strongly connected parts of more than one file (Tarjan). */
function loops(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) low.set(node, Math.min(low.get(node)!, index.get(target)!));
    }
    if (low.get(node) === index.get(node)) {
      const part: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        part.push(member);
      } while (member !== node);
      if (part.length > 1 || graph.get(node)?.includes(node)) found.push(part.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('the plugin’s layering', () => {
  const graph = importGraph();

  it('places every source file on a floor', () => {
    expect([...graph.keys()].filter((file) => floorOf(file) < 0)).toEqual([]);
  });

  it('imports only from the same floor or a lower one', () => {
    const upward: string[] = [];
    for (const [file, targets] of graph) {
      for (const target of targets) if (floorOf(target) > floorOf(file)) upward.push(`${file} -> ${target}`);
    }
    expect(upward).toEqual([]);
  });

  it('has no import loop', () => {
    expect(loops(graph)).toEqual([]);
  });

  it('finds a loop and an upward import when there is one', () => {
    const made = new Map([
      ['analysis/syntax/a.ts', ['analysis/syntax/b.ts']],
      ['analysis/syntax/b.ts', ['analysis/origin/c.ts']],
      ['analysis/origin/c.ts', ['analysis/syntax/a.ts']],
    ]);
    expect(loops(made)).toEqual([['analysis/origin/c.ts', 'analysis/syntax/a.ts', 'analysis/syntax/b.ts']]);
    expect(floorOf('analysis/origin/c.ts')).toBeGreaterThan(floorOf('analysis/syntax/b.ts'));
  });

  it('lets adapters reach the analysis through its entry file only', () => {
    const around: string[] = [];
    for (const [file, targets] of graph) {
      if (!file.startsWith('libraries/')) continue;
      for (const target of targets)
        if (target.startsWith('analysis/') && target !== analysisEntry) around.push(`${file} -> ${target}`);
    }
    expect(around).toEqual([]);
  });

  it('keeps each file of analysis/ under 400 lines', () => {
    const long = [...graph.keys()]
      .filter((file) => file.startsWith('analysis/'))
      .filter((file) => readFileSync(`${src}${file}`, 'utf8').split('\n').length > 400);
    expect(long).toEqual([]);
  });

  it('names no library in analysis/ outside comments', () => {
    // Library names and the words brokers add to names: none may appear in analysis code.
    // `cron` is a package and the kind of entry point a schedule is.
    const generic = new Set(['common', 'runtime', 'sql', 'id-generators', 'cron']);
    const banned = new Set<string>();
    for (const adapter of libraries) {
      if (!generic.has(adapter.name)) banned.add(adapter.name.toLowerCase());
      if (adapter.kind === 'broker') for (const word of adapter.nameWords ?? []) banned.add(word);
      if (adapter.kind === 'data' || adapter.kind === 'store')
        if (!generic.has(adapter.name)) banned.add(adapter.label.toLowerCase());
    }
    const found: string[] = [];
    for (const file of [...graph.keys()].filter((name) => name.startsWith('analysis/'))) {
      const { tokens } = tsParser.parseForESLint(readFileSync(`${src}${file}`, 'utf8'), {
        range: true,
        loc: true,
        tokens: true,
        comment: true,
      }).ast;
      for (const token of tokens ?? []) {
        for (const word of token.value.toLowerCase().split(/[^a-z0-9-]+/))
          if (banned.has(word)) found.push(`${file}:${token.loc.start.line} ${word}`);
      }
    }
    expect(found).toEqual([]);
  });
});
