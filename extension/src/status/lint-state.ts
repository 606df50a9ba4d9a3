import type { ProjectReading } from '../lint/lint-engine.js';

/** What the extension last did with one document, as the status item tells it. */
export type DocumentLintState =
  | { kind: 'waiting' }
  /** `read`: what the check read of the project besides the file (its schema, the helpers it followed). */
  | { kind: 'linted'; findings: number; durationMs: number; at: Date; read?: ProjectReading }
  | { kind: 'too-large'; sizeBytes: number; limitBytes: number }
  | { kind: 'unparseable'; reason: string; line: number }
  | { kind: 'failed'; reason: string }
  /** Tests, fixtures, seeds and migration scripts: the recommended config leaves them alone, and so does the editor. */
  | { kind: 'not-service-code' }
  /** Not checked, by the settings of the document's folder. */
  | { kind: 'off'; because: 'disabled' | 'deferred' };

/** What holds for every document at once: `starting` until the first result of any document. */
export type ExtensionState = 'starting' | 'active' | 'engine-unavailable';

export interface StatusText {
  text: string;
  detail: string;
  /** A problem the user should notice: shown with a warning marker. */
  attention: boolean;
  busy: boolean;
}

/** A schema file of the document's project that the checker skipped, named as the user knows it. */
export interface SkippedSchemaNote {
  /** The file's path relative to its workspace folder. */
  name: string;
  readAs: string;
}

/**
 * The status item's words for a state; kept apart from VS Code so it reads (and tests) plainly.
 * `skipped`: schema files of the document's project that could not be read; `name`: how a file
 * of the project is named to the user (its path in the workspace folder).
 */
export function describeState(
  extension: ExtensionState,
  document: DocumentLintState | undefined,
  skipped: readonly SkippedSchemaNote[] = [],
  name: (file: string) => string = (file) => file,
): StatusText {
  if (extension === 'engine-unavailable') {
    return {
      text: 'Idempotency: unavailable',
      detail: 'The checker could not start; see Idempotency: Show Log',
      attention: true,
      busy: false,
    };
  }
  if (!document || document.kind === 'waiting') {
    return extension === 'starting'
      ? {
          text: 'Idempotency: starting…',
          detail: 'Loading the checker (ESLint, the rules, the TypeScript parser) for the first check',
          attention: false,
          busy: true,
        }
      : { text: 'Idempotency: checking…', detail: '', attention: false, busy: true };
  }
  switch (document.kind) {
    case 'off':
      return document.because === 'disabled'
        ? {
            text: 'Idempotency: off',
            detail: 'Turned off by the idempotency.enable setting',
            attention: false,
            busy: false,
          }
        : {
            text: 'Idempotency: via ESLint',
            detail: "Your project's ESLint setup reports these findings (idempotency.deferToProjectEslint)",
            attention: false,
            busy: false,
          };
    case 'linted':
      if (skipped.length > 0) {
        const [first] = skipped;
        return {
          text: `Idempotency: schema skipped: ${skipped.length === 1 ? basename(first.name) : `${skipped.length} files`} unreadable`,
          detail: `${skipped.map((each) => `${each.name} could not be read as ${each.readAs}`).join('; ')}. The unique keys declared there are unknown to the check until it reads again. ${plural(document.findings, 'finding')}, last checked ${timeOfDay(document.at)}.`,
          attention: true,
          busy: false,
        };
      }
      // What the Problems panel cannot show: what the check read besides the file.
      return {
        text: `Idempotency: ${checkedWith(document.read)}`,
        detail: [
          ...(document.read ? readingDetail(document.read, name) : []),
          `${plural(document.findings, 'finding')}, last checked ${timeOfDay(document.at)} in ${Math.round(document.durationMs)} ms.`,
        ].join(' '),
        attention: false,
        busy: false,
      };
    case 'too-large':
      return {
        text: 'Idempotency: file not checked',
        detail: `This file is ${kilobytes(document.sizeBytes)}, over the ${kilobytes(document.limitBytes)} limit (idempotency.maxFileSizeKB)`,
        attention: true,
        busy: false,
      };
    case 'unparseable':
      return {
        text: 'Idempotency: waiting for valid syntax',
        detail: `Line ${document.line}: ${document.reason}`,
        attention: false,
        busy: false,
      };
    case 'failed':
      return { text: 'Idempotency: check failed', detail: document.reason, attention: true, busy: false };
    case 'not-service-code':
      return {
        text: 'Idempotency: not checked',
        detail:
          'Tests, fixtures, seeds and migration scripts are left alone, as the recommended ESLint config leaves them in CI',
        attention: false,
        busy: false,
      };
  }
}

/** "checked with schema.prisma + 3 migrations, 2 helpers followed", "checked, no schema needed". */
function checkedWith(read: ProjectReading | undefined): string {
  if (!read) return 'checked';
  const schema = read.schema;
  const parts = [
    schema === undefined
      ? ', no schema needed'
      : schema.length === 0
        ? ', no schema found'
        : ` with ${schemaSummary(schema).join(' + ')}`,
    ...(read.modules.length > 0 ? [`, ${plural(read.modules.length, 'helper')} followed`] : []),
  ];
  return `checked${parts.join('')}`;
}

/** `schema.prisma`, `3 migrations`, `2 model files`: the schema's files by name, migrations and model code by count. */
function schemaSummary(schema: NonNullable<ProjectReading['schema']>): string[] {
  const named = new Map<string, number>();
  let migrations = 0;
  let models = 0;
  for (const { file, kind } of schema) {
    if (kind === 'model code') models += 1;
    else if (/[\\/](?:migrations|drizzle)[\\/]/.test(file)) migrations += 1;
    else named.set(basename(file), (named.get(basename(file)) ?? 0) + 1);
  }
  return [
    ...[...named].map(([file, count]) => (count === 1 ? file : `${count} ${file} files`)),
    ...(migrations > 0 ? [plural(migrations, 'migration')] : []),
    ...(models > 0 ? [plural(models, 'model file')] : []),
  ];
}

/** The files themselves, for the hover: "Schema: prisma/schema.prisma, …. Helpers followed: src/keys.ts." */
function readingDetail(read: ProjectReading, name: (file: string) => string): string[] {
  const listed = (files: readonly string[]) => {
    const shown = files.slice(0, 5).map(name);
    return files.length > shown.length
      ? `${shown.join(', ')} and ${files.length - shown.length} more`
      : shown.join(', ');
  };
  return [
    ...(read.schema && read.schema.length > 0 ? [`Schema: ${listed(read.schema.map(({ file }) => file))}.`] : []),
    ...(read.modules.length > 0 ? [`Helpers followed: ${listed(read.modules)}.`] : []),
  ];
}

/**
 * `14:05:09`, in local time. Not `toLocaleTimeString`: its first call in a process loads the
 * locale's calendar data, which holds up the extension host for 20 to 70 ms right when the
 * first diagnostics of a file arrive.
 */
function timeOfDay(at: Date): string {
  return [at.getHours(), at.getMinutes(), at.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}

function basename(name: string): string {
  return name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function kilobytes(bytes: number): string {
  return `${Math.round(bytes / 1024)} KB`;
}
