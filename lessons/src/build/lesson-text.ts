import { JsonReader } from '../json-reader.js';
import type { BuiltSource } from '../model.js';

/**
 * The text half of a lesson as its author writes it in `lesson.json`: Markdown, the declared
 * answers, the sources. The executable half (handlers, deliveries) is TypeScript beside it.
 */

export type Markdown = string;

export interface QuestionText {
  readonly anchor: string;
  readonly title?: string;
  readonly scenario: Markdown;
  readonly prompt: Markdown;
  /** Why a learner might pick each option, and what the database shows instead; by option id. */
  readonly options: Readonly<Record<string, Markdown>>;
  readonly answer: string;
}

export interface ExampleText {
  readonly anchor: string;
  readonly title: string;
  /** One caption per handler the example shows, in the order `examples.ts` lists them. */
  readonly captions: readonly string[];
  readonly body: Markdown;
}

export interface TipText {
  readonly advice: Markdown;
  readonly when: Markdown;
  readonly verify: Markdown;
}

/** A source as the lesson file gives it: the built one, with its note still in Markdown. */
export type SourceText = Omit<BuiltSource, 'noteHtml'> & { readonly note: Markdown };

export interface LessonText {
  readonly id: string;
  readonly title: string;
  readonly thesis: Markdown;
  readonly checkedOn: string;
  readonly predict: QuestionText;
  readonly thirtySeconds: { readonly title: string; readonly body: Markdown };
  readonly steps: readonly Markdown[];
  readonly analogy: {
    readonly title: string;
    readonly story: Markdown;
    readonly mapping: readonly (readonly [string, string])[];
    readonly limits: Markdown;
  };
  readonly examples: readonly ExampleText[];
  readonly questions: readonly QuestionText[];
  readonly tips: readonly TipText[];
  readonly sources: readonly SourceText[];
  readonly related: {
    readonly title: string;
    readonly topics: readonly { readonly title: string; readonly body: Markdown }[];
  };
}

const isoDate = /^\d{4}-\d{2}-\d{2}$/;

/** Parses a lesson's `lesson.json`; `file` is the path used in error messages. */
export function readLessonText(json: unknown, file: string): LessonText {
  const lesson = new JsonReader(file, json);
  return {
    id: lesson.field('id').matching(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'a lower-case id with dashes'),
    title: lesson.field('title').string(),
    thesis: lesson.field('thesis').markdown(),
    checkedOn: lesson.field('checkedOn').matching(isoDate, 'a date as YYYY-MM-DD'),
    predict: readQuestion(lesson.field('predict'), 'predict'),
    thirtySeconds: {
      title: lesson.field('thirtySeconds').field('title').string(),
      body: lesson.field('thirtySeconds').field('body').markdown(),
    },
    steps: nonEmpty(lesson.field('steps')).map((step) => step.markdown()),
    analogy: readAnalogy(lesson.field('analogy')),
    examples: nonEmpty(lesson.field('examples')).map((example) => ({
      anchor: example.field('anchor').matching(/^example-\d+-\d+$/, 'an anchor such as example-4-1'),
      title: example.field('title').string(),
      captions: nonEmpty(example.field('captions')).map((caption) => caption.string()),
      body: example.field('body').markdown(),
    })),
    questions: nonEmpty(lesson.field('questions')).map((question) => readQuestion(question)),
    tips: nonEmpty(lesson.field('tips')).map((tip) => ({
      advice: tip.field('advice').markdown(),
      when: tip.field('when').markdown(),
      verify: tip.field('verify').markdown(),
    })),
    sources: nonEmpty(lesson.field('sources')).map(readSource),
    related: {
      title: lesson.field('related').field('title').string(),
      topics: nonEmpty(lesson.field('related').field('topics')).map((topic) => ({
        title: topic.field('title').string(),
        body: topic.field('body').markdown(),
      })),
    },
  };
}

function readQuestion(question: JsonReader, anchor?: string): QuestionText {
  const options = question.field('options');
  const optionTexts = Object.fromEntries(options.entries().map(([id, text]) => [id, text.markdown()]));
  if (Object.keys(optionTexts).length < 2) options.fail('a question needs at least two options');
  const answer = question.field('answer').oneOf(Object.keys(optionTexts));
  return {
    anchor: anchor ?? question.field('anchor').matching(/^q\d+$/, 'an anchor such as q1'),
    ...(question.has('title') ? { title: question.field('title').string() } : {}),
    scenario: question.field('scenario').markdown(),
    prompt: question.field('prompt').markdown(),
    options: optionTexts,
    answer,
  };
}

function readAnalogy(analogy: JsonReader): LessonText['analogy'] {
  return {
    title: analogy.field('title').string(),
    story: analogy.field('story').markdown(),
    mapping: nonEmpty(analogy.field('mapping')).map((row) => {
      const cells = row.items();
      if (cells.length !== 2) row.fail(`expected two cells (analogy, consumer), found ${cells.length}`);
      return [cells[0].string(), cells[1].string()] as const;
    }),
    limits: analogy.field('limits').markdown(),
  };
}

function readSource(source: JsonReader): SourceText {
  return {
    id: source.field('id').string(),
    title: source.field('title').string(),
    publisher: source.field('publisher').string(),
    url: source.field('url').matching(/^https:\/\/\S+$/, 'an https:// address'),
    fetched: source.field('fetched').matching(isoDate, 'a date as YYYY-MM-DD'),
    sha256:
      source.field('sha256').raw() === null
        ? null
        : source.field('sha256').matching(/^[0-9A-F]{64}$/i, 'a SHA-256 in hex, or null'),
    note: source.field('note').markdown(),
  };
}

function nonEmpty(list: JsonReader): JsonReader[] {
  const items = list.items();
  if (items.length === 0) list.fail('is an empty list');
  return items;
}
