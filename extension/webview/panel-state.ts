/** What the panel remembers across hiding and reloads, through VS Code's webview state. */
export interface PanelState {
  lesson: string;
  /** The place the learner was last sent to or moved to. */
  anchor?: string;
  /** The option the learner predicted, per question. */
  predictions: Record<string, string>;
  /** What the database computed, per question or example, as shown. */
  results: Record<string, StoredResult>;
}

export interface StoredResult {
  summary: string;
  /** Whether the prediction matched what the database computed (questions only). */
  matched?: boolean;
  explanation?: string;
}

interface WebviewApi {
  getState(): unknown;
  setState(state: unknown): void;
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): WebviewApi;

export const webviewApi: WebviewApi = acquireVsCodeApi();

/** The saved state if it belongs to this lesson and has the expected shape; a fresh one otherwise. */
export function restoreState(lesson: string): PanelState {
  const saved = webviewApi.getState() as Partial<PanelState> | undefined;
  if (!saved || saved.lesson !== lesson || typeof saved.predictions !== 'object' || typeof saved.results !== 'object') {
    return { lesson, predictions: {}, results: {} };
  }
  return { lesson, anchor: saved.anchor, predictions: { ...saved.predictions }, results: { ...saved.results } };
}

export function saveState(state: PanelState): void {
  webviewApi.setState(state);
}
