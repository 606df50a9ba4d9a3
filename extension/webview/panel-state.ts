/** What the panel remembers across hiding and reloads, through VS Code's webview state. */
export interface PanelState {
  lesson: string;
  /** The place the learner was last sent to. */
  anchor?: string;
  /** The option the learner chose, per question. */
  choices: Record<string, string>;
  /** What the database computed, per question. */
  checks: Record<string, QuestionResult>;
  /** The line each example printed, per example. */
  examples: Record<string, string>;
}

/** The parts of a question check the panel shows, small enough to keep in webview state. */
export interface QuestionResult {
  choice: string;
  /** The state the question's own handler left, when it shows one. */
  shipped?: string;
  /** The state the chosen option's handler left (or why it failed). */
  chosen: string;
  provenRight: string[];
  criterion: string;
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
  const record = (value: unknown) => (typeof value === 'object' && value !== null ? { ...value } : {});
  if (!saved || saved.lesson !== lesson) return { lesson, choices: {}, checks: {}, examples: {} };
  return {
    lesson,
    anchor: typeof saved.anchor === 'string' ? saved.anchor : undefined,
    choices: record(saved.choices),
    checks: record(saved.checks),
    examples: record(saved.examples),
  };
}

export function saveState(state: PanelState): void {
  webviewApi.setState(state);
}
