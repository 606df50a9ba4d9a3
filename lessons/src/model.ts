import type { RuleId } from './scenario.js';
import type { TimelineEvent } from './transcript.js';

/**
 * The lesson as `npm run build` writes it: text already rendered from Markdown to HTML (with raw
 * HTML disabled), code already extracted from the handlers that run, and option labels already
 * computed on PGlite. A host renders it as it is and runs items through `LessonRunner`.
 */

/** HTML rendered at build time from the lesson's own Markdown; safe to insert as markup. */
export type Html = string;

export const builtLessonFormat = 3;

export interface BuiltLesson {
  readonly format: typeof builtLessonFormat;
  /** `idempotent-consumers`: with an anchor it forms a link target, `idempotent-consumers#q1`. */
  readonly id: string;
  readonly title: string;
  readonly thesisHtml: Html;
  /** The date the lesson's sources and tools were last checked, `YYYY-MM-DD`. */
  readonly checkedOn: string;
  readonly predict: BuiltQuestion;
  readonly thirtySeconds: BuiltSection;
  readonly steps: readonly BuiltStep[];
  readonly analogy: BuiltAnalogy;
  readonly examples: readonly BuiltExample[];
  readonly questions: readonly BuiltQuestion[];
  /** Handlers to mend, one per plugin rule; a host checks them with `LessonRunner.checkExercise`. */
  readonly exercises: readonly BuiltExercise[];
  readonly tips: readonly BuiltTip[];
  readonly sources: readonly BuiltSource[];
  /** Neighbouring topics and how they connect; hosts list the rules that open this lesson after them. */
  readonly related: BuiltRelated;
  /** Every place a link may open, in reading order, with the plugin rules that point at it. */
  readonly places: readonly Place[];
  /** The races as last run on a real server, for hosts that have none; `null` until one is recorded. */
  readonly recordedRaces: RecordedRaces | null;
}

export interface RecordedRaces {
  /** `YYYY-MM-DD`. */
  readonly recordedOn: string;
  /** The server they ran on, e.g. `PostgreSQL 15.18`. */
  readonly engine: string;
  readonly races: readonly RecordedRace[];
}

export interface RecordedRace {
  /** The example whose handlers were raced. */
  readonly anchor: string;
  readonly label: string;
  readonly line: string;
  readonly timeline: readonly TimelineEvent[];
}

export interface Place {
  readonly anchor: string;
  readonly title: string;
  /** Rules of eslint-plugin-idempotency whose "Learn why" opens this place (first or as see-also). */
  readonly rules: readonly RuleId[];
}

export interface BuiltSection {
  readonly anchor: string;
  readonly title: string;
  readonly html: Html;
}

export interface BuiltStep {
  readonly anchor: string;
  readonly number: number;
  readonly html: Html;
}

export interface BuiltAnalogy {
  readonly anchor: string;
  readonly title: string;
  readonly storyHtml: Html;
  readonly mapping: readonly { readonly analogy: string; readonly consumer: string }[];
  readonly limitsHtml: Html;
}

/** Code the lesson shows, exactly as the handler that runs has it. */
export interface CodeSnippet {
  /** `<handlers module>#<function>`, e.g. `q1#handleResult`. */
  readonly handler: string;
  readonly language: 'typescript';
  /** The helpers the handler calls, then the handler itself. */
  readonly source: string;
  /** Rules that report this code; empty when no rule should. */
  readonly flaggedBy: readonly RuleId[];
  /** For faulty code that no rule reports: why it lies outside the rules. */
  readonly unflaggedBecause?: string;
}

export interface BuiltExample {
  readonly anchor: string;
  /** `4.1` … */
  readonly number: string;
  readonly title: string;
  readonly html: Html;
  /** The handler the example runs first, then any contrasting handler it shows. */
  readonly code: readonly CodeSnippet[];
  /** What each handler of `code` is, in the same order. */
  readonly captions: readonly string[];
}

export interface DeliveryView {
  readonly worker: string;
  readonly message: Readonly<Record<string, string | number>>;
}

export interface BuiltOption {
  readonly id: string;
  /**
   * What the learner chooses between. A question that asks what state the shown handler leaves has
   * `outcome` labels: the durable state this option's handler produced when the lesson was built
   * (`inbox=2 effects=2 sum=800`). A question that asks which code is right has `code` labels: the
   * one line in which this option's handler differs, or the whole handler (several lines, with a
   * first comment line when its statements commit one by one on a pool).
   */
  readonly label: string;
  readonly labelKind: 'outcome' | 'code';
  readonly code: CodeSnippet;
  readonly explanationHtml: Html;
}

export interface BuiltQuestion {
  /** `predict`, `q1` … */
  readonly anchor: string;
  /** 1-based position in the quiz; `null` for the prediction that opens the lesson. */
  readonly number: number | null;
  readonly title: string;
  readonly scenarioHtml: Html;
  /** The state a question starts from when it gives one, e.g. `inbox=3 effects=1 sum=400`. */
  readonly observed: string | null;
  readonly promptHtml: Html;
  /** The arrivals each run replays, in order, one worker transaction each. */
  readonly deliveries: readonly DeliveryView[];
  /** The handler the question asks about, when it shows one. */
  readonly code: CodeSnippet | null;
  readonly options: readonly BuiltOption[];
  /** The option the lesson declares right; tests prove it equals the one the database picks. */
  readonly answer: string;
  /** What makes an option right, in words, e.g. `reproduces inbox=3 effects=1 sum=400`. */
  readonly criterion: string;
}

/**
 * An exercise as a host shows it before any run: the handler to start from and the schedules the
 * checker will put it through. The model solution is not here: a host offers it from the runnable
 * lesson once the learner has tried.
 */
export interface BuiltExercise {
  /** `exercise-effect-key` …: a link target, like any other place. */
  readonly anchor: string;
  /** `effect-key` …: what `LessonRunner.checkExercise` takes. */
  readonly id: string;
  readonly rule: RuleId;
  readonly title: string;
  readonly task: string;
  /** The handler to start from, in the exercise form (see `exercise.ts`). */
  readonly starter: string;
  readonly schedules: readonly { readonly name: string; readonly story: string }[];
}

export interface BuiltTip {
  readonly anchor: string;
  readonly number: number;
  readonly adviceHtml: Html;
  readonly whenHtml: Html;
  readonly verifyHtml: Html;
}

export interface BuiltRelated {
  readonly anchor: string;
  readonly title: string;
  readonly topics: readonly { readonly title: string; readonly html: Html }[];
}

export interface BuiltSource {
  /** `S1` … or a short name for a further link. */
  readonly id: string;
  readonly title: string;
  readonly publisher: string;
  readonly url: string;
  readonly fetched: string;
  /** SHA-256 of the page as fetched, when one was recorded. */
  readonly sha256: string | null;
  readonly noteHtml: Html;
}
