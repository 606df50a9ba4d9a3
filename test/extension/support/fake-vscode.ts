/**
 * A small stand-in for the `vscode` module: enough of its classes and namespaces for the
 * extension's own code to run in Node, in unit tests and in the benchmark. It records what the
 * extension publishes (diagnostics, status text) so tests can assert on it. Behaviour that
 * matters to the code under test (ranges, positions, offsets) follows VS Code's semantics.
 */
import { readdirSync, readFileSync } from 'node:fs';

export class Position {
  constructor(
    readonly line: number,
    readonly character: number,
  ) {}
  isEqual(other: Position): boolean {
    return this.line === other.line && this.character === other.character;
  }
  isBefore(other: Position): boolean {
    return this.line < other.line || (this.line === other.line && this.character < other.character);
  }
}

export class Range {
  readonly start: Position;
  readonly end: Position;
  constructor(
    startOrLine: Position | number,
    endOrCharacter: Position | number,
    endLine?: number,
    endCharacter?: number,
  ) {
    const start = typeof startOrLine === 'number' ? new Position(startOrLine, endOrCharacter as number) : startOrLine;
    const end = typeof startOrLine === 'number' ? new Position(endLine!, endCharacter!) : (endOrCharacter as Position);
    [this.start, this.end] = end.isBefore(start) ? [end, start] : [start, end];
  }
  isEqual(other: Range): boolean {
    return this.start.isEqual(other.start) && this.end.isEqual(other.end);
  }
  contains(position: Position): boolean {
    return !position.isBefore(this.start) && !this.end.isBefore(position);
  }
}

export class Selection extends Range {}

export enum DiagnosticSeverity {
  Error = 0,
  Warning = 1,
  Information = 2,
  Hint = 3,
}

export enum LanguageStatusSeverity {
  Information = 0,
  Warning = 1,
  Error = 2,
}

export enum ViewColumn {
  Active = -1,
  Beside = -2,
  One = 1,
}

export class Uri {
  private constructor(private readonly text: string) {}
  static parse(text: string): Uri {
    return new Uri(text);
  }
  static file(path: string): Uri {
    return new Uri(`file://${path}`);
  }
  static joinPath(base: Uri, ...parts: string[]): Uri {
    return new Uri([base.text, ...parts].join('/'));
  }
  get scheme(): string {
    return this.text.slice(0, this.text.indexOf(':'));
  }
  get fsPath(): string {
    return this.text.replace(/^file:\/\//, '');
  }
  get path(): string {
    return this.text.replace(/^[a-z-]+:\/\/[^/]*/, '');
  }
  toString(): string {
    return this.text;
  }
}

export class Location {
  constructor(
    public uri: Uri,
    public range: Range | Position,
  ) {}
}

export class DiagnosticRelatedInformation {
  constructor(
    public location: Location,
    public message: string,
  ) {}
}

export class Diagnostic {
  source?: string;
  code?: string | number | { value: string | number; target: Uri };
  relatedInformation?: DiagnosticRelatedInformation[];
  constructor(
    public range: Range,
    public message: string,
    public severity: DiagnosticSeverity = DiagnosticSeverity.Error,
  ) {}
}

export class TextEdit {
  constructor(
    public range: Range,
    public newText: string,
  ) {}
}

export class SnippetString {
  value = '';
  appendText(text: string): SnippetString {
    this.value += text.replace(/[$}\\]/g, '\\$&');
    return this;
  }
  appendPlaceholder(text: string): SnippetString {
    this.value += `\${1:${text}}`;
    return this;
  }
}

export class SnippetTextEdit {
  constructor(
    readonly range: Range,
    readonly snippet: SnippetString,
  ) {}
  static insert(position: Position, snippet: SnippetString): SnippetTextEdit {
    return new SnippetTextEdit(new Range(position, position), snippet);
  }
}

export class WorkspaceEdit {
  readonly edits: { uri: Uri; edit: TextEdit | SnippetTextEdit }[] = [];
  set(uri: Uri, edits: readonly (TextEdit | SnippetTextEdit)[]): void {
    for (const edit of edits) this.edits.push({ uri, edit });
  }
  replace(uri: Uri, range: Range, newText: string): void {
    this.edits.push({ uri, edit: new TextEdit(range, newText) });
  }
  insert(uri: Uri, position: Position, newText: string): void {
    this.edits.push({ uri, edit: new TextEdit(new Range(position, position), newText) });
  }
}

export class MarkdownString {
  isTrusted?: boolean | { enabledCommands: readonly string[] };
  constructor(readonly value: string) {}
}

export class Hover {
  constructor(readonly contents: MarkdownString) {}
}

export class CodeActionKind {
  static readonly QuickFix = new CodeActionKind('quickfix');
  constructor(readonly value: string) {}
}

export class CodeAction {
  diagnostics?: Diagnostic[];
  isPreferred?: boolean;
  edit?: WorkspaceEdit;
  command?: { title: string; command: string; arguments?: unknown[] };
  constructor(
    public title: string,
    public kind?: CodeActionKind,
  ) {}
}

type Listener<T> = (value: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  readonly event = (listener: Listener<T>) => {
    this.listeners.push(listener);
    return { dispose: () => (this.listeners = this.listeners.filter((each) => each !== listener)) };
  };
  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
  dispose(): void {
    this.listeners = [];
  }
}

/** A text with its lines found, so a timed window can set it without that work (see `FakeTextDocument.setText`). */
export interface IndexedText {
  text: string;
  lineStarts: number[];
}

export function indexedText(text: string): IndexedText {
  const lineStarts = [0];
  for (let index = 0; index < text.length; index += 1) {
    if (text[index] === '\n') lineStarts.push(index + 1);
  }
  return { text, lineStarts };
}

/** A text document over a string, with VS Code's line and offset arithmetic. */
export class FakeTextDocument {
  version = 1;
  isClosed = false;
  isDirty = false;
  private lineStarts: number[] = [];
  constructor(
    readonly uri: Uri,
    readonly languageId: string,
    private text: string,
  ) {
    this.lineStarts = indexedText(text).lineStarts;
  }
  get fileName(): string {
    return this.uri.fsPath;
  }
  get lineCount(): number {
    return this.lineStarts.length;
  }
  getText(): string {
    return this.text;
  }
  /** A new text, as an edit leaves it; already indexed, it is set at once, as VS Code's own documents are updated incrementally. */
  setText(next: string | IndexedText): void {
    ({ text: this.text, lineStarts: this.lineStarts } = typeof next === 'string' ? indexedText(next) : next);
    this.version += 1;
  }
  lineAt(line: number): { text: string; range: Range } {
    const start = this.lineStarts[line] ?? this.text.length;
    const next = this.lineStarts[line + 1];
    const end = next === undefined ? this.text.length : next - (this.text[next - 2] === '\r' ? 2 : 1);
    return { text: this.text.slice(start, end), range: new Range(line, 0, line, end - start) };
  }
  positionAt(offset: number): Position {
    const clamped = Math.max(0, Math.min(offset, this.text.length));
    // Binary search, as VS Code's own documents do: the benchmark must not time a slow stand-in.
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >>> 1;
      if (this.lineStarts[middle] <= clamped) low = middle;
      else high = middle - 1;
    }
    return new Position(low, clamped - this.lineStarts[low]);
  }
  validateRange(range: Range): Range {
    const clamp = (position: Position) => {
      const line = Math.max(0, Math.min(position.line, this.lineCount - 1));
      return new Position(line, Math.max(0, Math.min(position.character, this.lineAt(line).text.length)));
    };
    return new Range(clamp(range.start), clamp(range.end));
  }
}

export class FakeDiagnosticCollection {
  readonly byUri = new Map<string, Diagnostic[]>();
  readonly onSet = new EventEmitter<{ uri: Uri; diagnostics: Diagnostic[] }>();
  set(uri: Uri, diagnostics: Diagnostic[]): void {
    this.byUri.set(uri.toString(), diagnostics);
    this.onSet.fire({ uri, diagnostics });
  }
  delete(uri: Uri): void {
    this.byUri.delete(uri.toString());
  }
  clear(): void {
    this.byUri.clear();
  }
  dispose(): void {
    this.clear();
  }
}

const disposable = { dispose() {} };

export class Disposable {
  static from(...disposables: { dispose(): unknown }[]): { dispose(): void } {
    return { dispose: () => disposables.forEach((each) => each.dispose()) };
  }
}

/** What the fake editor holds; tests and the benchmark drive it through these. */
export const fakeEditor = {
  configuration: {} as Record<string, unknown>,
  /** Settings of workspace folders, by folder path: a document under one of them reads these instead. */
  folderConfiguration: {} as Record<string, Record<string, unknown>>,
  workspaceFolders: undefined as { uri: Uri; name: string; index: number }[] | undefined,
  documents: [] as FakeTextDocument[],
  collections: [] as FakeDiagnosticCollection[],
  statusItems: [] as { text: string; detail?: string; severity: LanguageStatusSeverity; busy: boolean }[],
  commands: new Map<string, (...args: unknown[]) => unknown>(),
  codeActionProviders: [] as unknown[],
  events: {
    open: new EventEmitter<FakeTextDocument>(),
    change: new EventEmitter<{ document: FakeTextDocument; contentChanges: unknown[] }>(),
    save: new EventEmitter<FakeTextDocument>(),
    close: new EventEmitter<FakeTextDocument>(),
    configuration: new EventEmitter<{ affectsConfiguration(section: string): boolean }>(),
    workspaceFolders: new EventEmitter<{ added: unknown[]; removed: unknown[] }>(),
    /** A file that the workspace's file watchers cover changed on disk. */
    fileChanged: new EventEmitter<Uri>(),
    activeEditor: new EventEmitter<unknown>(),
  },
  activeDocument: undefined as FakeTextDocument | undefined,
  /** Lines of the extension's log and its error messages. */
  messages: [] as string[],
  /** Warning notifications. */
  notifications: [] as string[],
};

/** A glob below a folder, as findFiles takes it. */
export class RelativePattern {
  constructor(
    readonly base: { uri: Uri },
    readonly pattern: string,
  ) {}
}

// Lists the files below the pattern's folder with a source extension, leaving out the folders that globs of `exclude` ("{a,b}") name.
function findFiles(include: RelativePattern, exclude?: string): Promise<Uri[]> {
  const left = [...(exclude ?? '').matchAll(/\*\*\/([^/,{}*]+)\/\*\*/g)].map((match) => `/${match[1]}/`);
  const found: Uri[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = `${dir}/${entry.name}`;
      if (entry.isDirectory()) visit(full);
      else if (/\.(?:[cm]?[jt]s|[jt]sx)$/.test(entry.name) && !left.some((folder) => full.includes(folder)))
        found.push(Uri.file(full));
    }
  };
  visit(include.base.uri.fsPath);
  return Promise.resolve(found.sort((a, b) => a.fsPath.localeCompare(b.fsPath)));
}

export const workspace = {
  get workspaceFolders() {
    return fakeEditor.workspaceFolders;
  },
  findFiles,
  fs: { readFile: async (uri: Uri) => new Uint8Array(readFileSync(uri.fsPath)) },
  get textDocuments() {
    return fakeEditor.documents;
  },
  getConfiguration: (_section: string, resource?: Uri) => {
    const folder = Object.keys(fakeEditor.folderConfiguration).find(
      (root) => resource?.fsPath === root || resource?.fsPath.startsWith(`${root}/`),
    );
    const values = folder
      ? { ...fakeEditor.configuration, ...fakeEditor.folderConfiguration[folder] }
      : fakeEditor.configuration;
    return { get: <T>(key: string) => values[key] as T | undefined };
  },
  /** The folder of `folderConfiguration` a resource is under, as VS Code's workspace folders are found. */
  getWorkspaceFolder: (resource: Uri) => {
    const folder = Object.keys(fakeEditor.folderConfiguration).find((root) => resource.fsPath.startsWith(`${root}/`));
    return folder === undefined ? undefined : { uri: Uri.file(folder), name: folder, index: 0 };
  },
  asRelativePath: (file: string) => {
    const folder = Object.keys(fakeEditor.folderConfiguration).find((root) => file.startsWith(`${root}/`));
    return folder === undefined ? file : file.slice(folder.length + 1);
  },
  onDidOpenTextDocument: fakeEditor.events.open.event,
  onDidChangeTextDocument: fakeEditor.events.change.event,
  onDidSaveTextDocument: fakeEditor.events.save.event,
  onDidCloseTextDocument: fakeEditor.events.close.event,
  onDidChangeConfiguration: fakeEditor.events.configuration.event,
  onDidChangeWorkspaceFolders: fakeEditor.events.workspaceFolders.event,
  createFileSystemWatcher: () => ({
    onDidChange: fakeEditor.events.fileChanged.event,
    onDidCreate: () => disposable,
    onDidDelete: () => disposable,
    dispose() {},
  }),
};

const logChannel = {
  info: (line: string) => fakeEditor.messages.push(line),
  warn: (line: string) => fakeEditor.messages.push(line),
  error: (line: string) => fakeEditor.messages.push(line),
  show() {},
  dispose() {},
};

export const window = {
  get activeTextEditor() {
    return fakeEditor.activeDocument && { document: fakeEditor.activeDocument };
  },
  onDidChangeActiveTextEditor: fakeEditor.events.activeEditor.event,
  createOutputChannel: () => logChannel,
  showErrorMessage: async (message: string) => {
    fakeEditor.messages.push(message);
    return undefined;
  },
  showWarningMessage: async (message: string) => {
    fakeEditor.notifications.push(message);
    return undefined;
  },
  showTextDocument: async () => undefined,
  registerWebviewPanelSerializer: () => disposable,
  createWebviewPanel: () => {
    throw new Error('The fake editor has no webviews');
  },
  /** A tree view the fake editor never shows, so it never asks for its items. */
  createTreeView: () => ({ message: '', visible: false, dispose() {} }),
};

export enum TreeItemCollapsibleState {
  None = 0,
  Collapsed = 1,
  Expanded = 2,
}

export class TreeItem {
  description?: string;
  tooltip?: unknown;
  iconPath?: unknown;
  command?: unknown;
  constructor(
    readonly label: string,
    readonly collapsibleState = TreeItemCollapsibleState.None,
  ) {}
}

export class ThemeIcon {
  constructor(readonly id: string) {}
}

export const languages = {
  createDiagnosticCollection: () => {
    const collection = new FakeDiagnosticCollection();
    fakeEditor.collections.push(collection);
    return collection;
  },
  createLanguageStatusItem: () => {
    const item = {
      text: '',
      detail: '',
      severity: LanguageStatusSeverity.Information,
      busy: false,
      name: '',
      command: undefined,
      dispose() {},
    };
    fakeEditor.statusItems.push(item);
    return item;
  },
  registerCodeActionsProvider: (_selector: unknown, provider: unknown) => {
    fakeEditor.codeActionProviders.push(provider);
    return disposable;
  },
  registerHoverProvider: () => disposable,
  getDiagnostics: (uri: Uri) =>
    fakeEditor.collections.flatMap((collection) => collection.byUri.get(uri.toString()) ?? []),
};

export const commands = {
  registerCommand: (name: string, run: (...args: unknown[]) => unknown) => {
    fakeEditor.commands.set(name, run);
    return disposable;
  },
};
