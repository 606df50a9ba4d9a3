import { randomBytes } from 'node:crypto';

import * as vscode from 'vscode';

import { loadLessonPage } from './lesson-content.js';
import { createNonce, lessonPageHtml, rulePageHtml } from './lesson-html.js';
import type { LessonTarget } from './lesson-target.js';
import { isMessageFromLesson, type MessageToLesson } from './lesson-messages.js';
import { showRulePageCommand } from '../rules.js';
import { loadRulePage, type RuleInEditor } from './rule-page.js';

export const lessonViewType = 'idempotency.lesson';
/** The commands the panel's links may run: from a rule's page to its lesson, and between rule pages. */
const commandsInPanel = ['idempotency.openLesson', showRulePageCommand];
const savedProgressKey = 'idempotency.lessonProgress';
const defaultLesson = 'idempotent-consumers';

/**
 * The one lesson panel. "Learn why" on any finding reveals it and moves it to the finding's
 * question instead of opening another panel; VS Code restores it after a reload through the
 * serializer, and the page restores its own answers from its saved state. A rule's page opens in
 * the same panel.
 */
export class LessonPanel implements vscode.Disposable {
  private panel: vscode.WebviewPanel | undefined;
  private lesson = defaultLesson;
  /** The rule whose page the panel shows instead of the lesson, if any, and how this editor reports it. */
  private rule: string | undefined;
  private ruleInEditor: RuleInEditor | undefined;

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

  /**
   * A visible page is told where to go. A hidden one has no page (its context is not retained):
   * VS Code builds it again from its HTML when it is revealed, too late to hear a message, so its
   * HTML is written anew with the place in it.
   */
  show(target?: LessonTarget): void {
    const lesson = target?.lesson ?? this.lesson;
    if (this.panel?.visible && this.rule === undefined && lesson === this.lesson) {
      this.panel.reveal(undefined, false);
      this.post({ type: 'go-to', anchor: target?.anchor });
      return;
    }
    this.rule = undefined;
    this.adopt(this.openPanel(), lesson, target?.anchor);
  }

  showRule(rule: string, inEditor?: RuleInEditor): void {
    this.rule = rule;
    this.ruleInEditor = inEditor;
    this.adopt(this.openPanel(), this.lesson, undefined);
  }

  private openPanel(): vscode.WebviewPanel {
    if (this.panel) {
      this.panel.reveal(undefined, false);
      return this.panel;
    }
    return vscode.window.createWebviewPanel(
      lessonViewType,
      'Lesson',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false },
      this.options(),
    );
  }

  serializer(): vscode.WebviewPanelSerializer<unknown> {
    return {
      deserializeWebviewPanel: (panel, state) => {
        const saved = state as { lesson?: unknown } | undefined;
        this.adopt(panel, typeof saved?.lesson === 'string' ? saved.lesson : defaultLesson, undefined);
        return Promise.resolve();
      },
    };
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      // The page keeps its answers with setState, so it need not stay alive while hidden.
      retainContextWhenHidden: false,
      enableCommandUris: commandsInPanel,
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
      // The page is gone once hidden; it comes back from its HTML, which must then hold the
      // progress made since it was written (the page's answers and its last place).
      panel.onDidChangeViewState(() => {
        if (this.panel === panel && !panel.visible) this.adopt(panel, this.lesson, undefined);
      });
    }
    this.lesson = lesson;
    panel.webview.options = this.options();
    const webviewRoot = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    panel.iconPath = {
      light: vscode.Uri.joinPath(webviewRoot, 'lesson-icon-light.svg'),
      dark: vscode.Uri.joinPath(webviewRoot, 'lesson-icon-dark.svg'),
    };
    const asset = (name: string) => panel.webview.asWebviewUri(vscode.Uri.joinPath(webviewRoot, name)).toString();
    if (this.rule !== undefined) {
      const rulePage = loadRulePage(
        vscode.Uri.joinPath(this.extensionUri, 'dist', 'rules').fsPath,
        this.rule,
        this.ruleInEditor,
      );
      panel.title = rulePage.title;
      panel.webview.html = rulePageHtml({
        cspSource: panel.webview.cspSource,
        nonce: createNonce(randomBytes),
        styleUri: asset('lesson.css'),
        title: rulePage.title,
        ruleHtml: rulePage.html,
      });
      return;
    }
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
