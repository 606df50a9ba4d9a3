import { randomBytes } from 'node:crypto';

import * as vscode from 'vscode';

import { loadLessonPage } from './lesson-content';
import { createNonce, lessonPageHtml } from './lesson-html';
import type { LessonTarget } from './lesson-target';
import { isMessageFromLesson, type MessageToLesson } from './lesson-messages';

export const lessonViewType = 'idempotency.lesson';
const savedProgressKey = 'idempotency.lessonProgress';
const defaultLesson = 'idempotent-consumers';

/**
 * The one lesson panel. "Learn why" on any finding reveals it and moves it to the finding's
 * question instead of opening another panel; VS Code restores it after a reload through the
 * serializer, and the page restores its own answers from its saved state.
 */
export class LessonPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private lesson = defaultLesson;

  /**
   * `workspaceState` keeps a copy of the page's progress. The webview's own state (setState) is
   * written to disk only when the workbench next saves its editors, which a reload right after an
   * answer can beat, most of all in a browser-hosted VS Code; a memento update is written at once.
   */
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly progress: vscode.Memento,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  show(target?: LessonTarget): void {
    const lesson = target?.lesson ?? this.lesson;
    if (this.panel && lesson === this.lesson) {
      this.panel.reveal(undefined, false);
      this.post({ type: 'go-to', anchor: target?.anchor });
      return;
    }
    const panel =
      this.panel ??
      vscode.window.createWebviewPanel(lessonViewType, 'Lesson', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, this.options());
    this.adopt(panel, lesson, target?.anchor);
  }

  serializer(): vscode.WebviewPanelSerializer<unknown> {
    return {
      deserializeWebviewPanel: async (panel, state) => {
        const saved = state as { lesson?: unknown } | undefined;
        this.adopt(panel, typeof saved?.lesson === 'string' ? saved.lesson : defaultLesson, undefined);
      },
    };
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      // The page keeps its answers with setState, so it need not stay alive while hidden.
      retainContextWhenHidden: false,
      localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview')],
    };
  }

  private adopt(panel: vscode.WebviewPanel, lesson: string, anchor: string | undefined): void {
    if (this.panel !== panel) {
      this.panel = panel;
      panel.onDidDispose(() => {
        if (this.panel === panel) this.panel = undefined;
      });
      panel.webview.onDidReceiveMessage((message: unknown) => this.receive(message));
    }
    this.lesson = lesson;
    panel.webview.options = this.options();
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview', 'lesson-icon.svg');
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const asset = (name: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, name)).toString();
    const page = loadLessonPage(vscode.Uri.joinPath(this.extensionUri, 'dist', 'lessons').fsPath, lesson);
    panel.title = page.title;
    panel.webview.html = lessonPageHtml({
      cspSource: panel.webview.cspSource,
      nonce: createNonce(randomBytes),
      scriptUri: asset('lesson.js'),
      styleUri: asset('lesson.css'),
      title: page.title,
      lessonHtml: page.html,
      bootstrap: {
        lesson,
        anchor,
        assets: Object.fromEntries(Object.entries(page.assets).map(([role, file]) => [role, asset(file)])),
        available: page.available,
        savedState: this.savedProgress(lesson),
      },
    });
  }

  private receive(message: unknown): void {
    if (!isMessageFromLesson(message)) return;
    switch (message.type) {
      case 'database-ready':
        this.log.info(`Lesson database ready in ${Math.round(message.milliseconds)} ms`);
        return;
      case 'database-failed':
        this.log.warn(`The lesson database could not start: ${message.reason}`);
        return;
      case 'state':
        void this.progress.update(savedProgressKey, message.state);
        return;
    }
  }

  private savedProgress(lesson: string): unknown {
    const saved = this.progress.get<{ lesson?: unknown }>(savedProgressKey);
    return saved?.lesson === lesson ? saved : undefined;
  }

  private post(message: MessageToLesson): void {
    void this.panel?.webview.postMessage(message);
  }

  dispose(): void {
    this.panel?.dispose();
  }
}
