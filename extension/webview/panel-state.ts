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
  /** The handler the learner last had in each exercise's box, and whether they checked one. */
  exercises: Record<string, ExerciseProgress>;
}

export interface ExerciseProgress {
  text: string;
  tried: boolean;
}

/** The parts of a question check the panel shows, small enough to keep in webview state. */
export interface QuestionResult {
  choice: string;
  /** The state the chosen option's handler left (or why it failed). */
  chosen: string;
  provenRight: string[];
  /** The state the first option the database proves right left, if any option is. */
  right?: string;
  criterion: string;
}

interface WebviewApi {
  getState(): unknown;
  setState(state: unknown): void;
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): WebviewApi;

export const webviewApi: WebviewApi = acquireVsCodeApi();

/**
 * The saved state if it belongs to this lesson and has the expected shape; a fresh one otherwise.
 * The host's copy comes first: it is written on every change, the webview's own only now and then.
 */
export function restoreState(lesson: string, fromHost: unknown): PanelState {
  const saved = ((fromHost as Partial<PanelState> | undefined) ?? webviewApi.getState()) as
    Partial<PanelState> | undefined;
  const record = (value: unknown) => (typeof value === 'object' && value !== null ? { ...value } : {});
  if (!saved || saved.lesson !== lesson) return { lesson, choices: {}, checks: {}, examples: {}, exercises: {} };
  return {
    lesson,
    anchor: typeof saved.anchor === 'string' ? saved.anchor : undefined,
    choices: record(saved.choices),
    checks: record(saved.checks),
    examples: record(saved.examples),
    exercises: Object.fromEntries(
      Object.entries(record(saved.exercises)).filter(
        (entry): entry is [string, ExerciseProgress] =>
          typeof (entry[1] as Partial<ExerciseProgress> | null)?.text === 'string',
      ),
    ),
  };
}

export function saveState(state: PanelState): void {
  webviewApi.setState(state);
  webviewApi.postMessage({ type: 'state', state });
}
