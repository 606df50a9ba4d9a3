import { join } from 'node:path';

import { LessonFileError } from '../json-reader.js';
import {
  builtLessonFormat,
  type BuiltExample,
  type BuiltLesson,
  type BuiltOption,
  type BuiltQuestion,
  type CodeSnippet,
  type DeliveryView,
  type Place,
  type RecordedRaces,
} from '../model.js';
import { describeFailure, type HandlerRun } from '../runner.js';
import {
  formatOutcome,
  type QuestionScenario,
  type RuleId,
  type RunnableLesson,
  type ShownHandler,
} from '../scenario.js';
import type { HandlerSourceReader } from './extract-code.js';
import { deliveryFacts, fillFromDeliveries } from './fill-from-deliveries.js';
import { fillFromRun } from './fill-from-run.js';
import type { LessonText, QuestionText } from './lesson-text.js';
import { renderMarkdown } from './render-markdown.js';

export interface LessonFiles {
  /** The lesson's folder, e.g. `lessons/idempotent-consumers`. */
  readonly folder: string;
  /** How `lesson.json` is named in messages. */
  readonly textFile: string;
}

export interface RuleLink {
  readonly lesson: string;
  readonly anchor: string;
  readonly seeAlso: readonly string[];
}

export interface AssemblyInputs {
  readonly text: LessonText;
  readonly runnable: RunnableLesson;
  readonly files: LessonFiles;
  readonly code: HandlerSourceReader;
  /** Runs one handler of a question on PGlite; its run labels the option and fills its explanation. */
  readonly runHandler: (anchor: string, which: string) => Promise<HandlerRun>;
  /** The plugin's rule-to-lesson table, so the lesson can say which rules point at each place. */
  readonly ruleLinks: Readonly<Record<string, RuleLink>>;
  /** The races as last recorded on a real server, if they ever were. */
  readonly recordedRaces: RecordedRaces | null;
}

/** Joins a lesson's text with what it runs, checks that they agree, and renders it for hosts. */
export async function assembleLesson(inputs: AssemblyInputs): Promise<BuiltLesson> {
  const { text, runnable, files } = inputs;
  if (text.id !== runnable.id) {
    throw new LessonFileError(files.textFile, 'id', `is "${text.id}" but the lesson's code is "${runnable.id}"`);
  }
  const questionTexts = [text.predict, ...text.questions];
  matchAnchors(
    questionTexts.map((question) => question.anchor),
    runnable.questions.map((question) => question.anchor),
    files.textFile,
    'question',
    'questions.ts',
  );
  matchAnchors(
    text.examples.map((example) => example.anchor),
    runnable.examples.map((example) => example.anchor),
    files.textFile,
    'example',
    'examples.ts',
  );

  const examples: BuiltExample[] = text.examples.map((exampleText, index) => {
    const scenario = runnable.examples.find((candidate) => candidate.anchor === exampleText.anchor)!;
    if (exampleText.captions.length !== scenario.shown.length) {
      throw new LessonFileError(
        files.textFile,
        `examples[${index}].captions`,
        `has ${exampleText.captions.length} captions but examples.ts shows ${scenario.shown.length} handlers`,
      );
    }
    return {
      anchor: scenario.anchor,
      number: scenario.number,
      title: exampleText.title,
      captions: exampleText.captions,
      html: renderMarkdown(
        fillFromDeliveries(exampleText.body, scenario.messages, files.textFile, `examples[${index}].body`),
      ),
      code: scenario.shown.map((handler) => snippet(inputs, handler)),
    };
  });

  // Every question's options are matched before any is run, so a mismatch is reported as one.
  const questionFields = questionTexts.map((questionText, index) => {
    const scenario = runnable.questions.find((candidate) => candidate.anchor === questionText.anchor)!;
    const field = index === 0 ? 'predict' : `questions[${index - 1}]`;
    const textIds = Object.keys(questionText.options);
    const codeIds = Object.keys(scenario.options);
    if (textIds.join() !== codeIds.join()) {
      throw new LessonFileError(
        files.textFile,
        `${field}.options`,
        `has options ${textIds.join(', ')} but questions.ts runs ${codeIds.join(', ')}`,
      );
    }
    return { questionText, scenario, field, number: index === 0 ? null : index };
  });
  const questions: BuiltQuestion[] = [];
  for (const { questionText, scenario, field, number } of questionFields)
    questions.push(await buildQuestion(inputs, questionText, scenario, field, number));

  const [predict, ...quiz] = questions as [BuiltQuestion, ...BuiltQuestion[]];
  const lesson: Omit<BuiltLesson, 'places' | 'recordedRaces'> = {
    format: builtLessonFormat,
    id: text.id,
    title: text.title,
    thesisHtml: renderMarkdown(text.thesis),
    checkedOn: text.checkedOn,
    predict,
    thirtySeconds: {
      anchor: 'thirty-seconds',
      title: text.thirtySeconds.title,
      html: renderMarkdown(text.thirtySeconds.body),
    },
    steps: text.steps.map((step, index) => ({
      anchor: `step-${index + 1}`,
      number: index + 1,
      html: renderMarkdown(step),
    })),
    analogy: {
      anchor: 'analogy',
      title: text.analogy.title,
      storyHtml: renderMarkdown(text.analogy.story),
      mapping: text.analogy.mapping.map(([analogy, consumer]) => ({ analogy, consumer })),
      limitsHtml: renderMarkdown(text.analogy.limits),
    },
    examples,
    questions: quiz,
    exercises: runnable.exercises.map((exercise) => ({
      anchor: `exercise-${exercise.id}`,
      id: exercise.id,
      rule: exercise.rule,
      title: exercise.title,
      task: exercise.task,
      starter: exercise.starter,
      schedules: exercise.schedules.map((schedule) => ({ name: schedule.name, story: schedule.story })),
    })),
    tips: text.tips.map((tip, index) => ({
      anchor: `tip-${index + 1}`,
      number: index + 1,
      adviceHtml: renderMarkdown(tip.advice),
      whenHtml: renderMarkdown(tip.when),
      verifyHtml: renderMarkdown(tip.verify),
    })),
    sources: text.sources.map((source) => ({
      id: source.id,
      title: source.title,
      publisher: source.publisher,
      url: source.url,
      fetched: source.fetched,
      sha256: source.sha256,
      noteHtml: renderMarkdown(source.note),
    })),
    related: {
      anchor: 'related',
      title: text.related.title,
      topics: text.related.topics.map((topic) => ({ title: topic.title, html: renderMarkdown(topic.body) })),
    },
  };
  for (const race of inputs.recordedRaces?.races ?? []) {
    if (!examples.some((example) => example.anchor === race.anchor)) {
      throw new LessonFileError(
        files.textFile,
        `recorded race "${race.label}"`,
        `belongs to ${race.anchor}, which the lesson does not have`,
      );
    }
  }
  return { ...lesson, places: places(lesson, inputs.ruleLinks, files.textFile), recordedRaces: inputs.recordedRaces };
}

async function buildQuestion(
  inputs: AssemblyInputs,
  questionText: QuestionText,
  scenario: QuestionScenario,
  field: string,
  number: number | null,
): Promise<BuiltQuestion> {
  // A question that asks for the state the shown handler leaves offers states; one that asks which
  // code is right offers code, so that a state stated in the question cannot point at its answer.
  const asksForCode = scenario.answer.kind !== 'same-as-shipped';
  if (!asksForCode && scenario.labelledBy) {
    throw new LessonFileError(
      inputs.files.textFile,
      field,
      'asks for the state the shown handler leaves, so its options are states, not declarations',
    );
  }
  const options: BuiltOption[] = [];
  for (const optionId of Object.keys(scenario.options)) {
    const handler = scenario.options[optionId];
    const run = await inputs.runHandler(scenario.anchor, optionId);
    if (!run.ok)
      throw new Error(
        `${scenario.anchor} option ${optionId} could not be run to build it: ${describeFailure(run.failure)}`,
      );
    const code = snippet(inputs, handler);
    options.push({
      id: optionId,
      label: !asksForCode
        ? run.text
        : scenario.labelledBy
          ? inputs.code.extract(handlerFile(inputs, handler), handler.name, scenario.labelledBy).label!
          : codeLabel(code, handler),
      labelKind: asksForCode ? 'code' : 'outcome',
      code,
      explanationHtml: renderMarkdown(
        fillFromRun(questionText.options[optionId], run, inputs.files.textFile, `${field}.options.${optionId}`),
      ),
    });
  }
  const rule = scenario.answer;
  const facts = deliveryFacts(scenario.deliveries);
  return {
    anchor: scenario.anchor,
    number,
    title: questionText.title ?? `Question ${number}`,
    scenarioHtml: renderMarkdown(
      fillFromDeliveries(questionText.scenario, facts, inputs.files.textFile, `${field}.scenario`),
    ),
    observed: rule.kind === 'reproduces' ? formatOutcome(rule.trace) : null,
    promptHtml: renderMarkdown(
      fillFromDeliveries(questionText.prompt, facts, inputs.files.textFile, `${field}.prompt`),
    ),
    deliveries: scenario.deliveries.map((delivery): DeliveryView => ({
      worker: delivery.worker,
      message: { ...delivery.message },
    })),
    code: scenario.shipped ? snippet(inputs, scenario.shipped) : null,
    options,
    answer: questionText.answer,
    criterion:
      rule.kind === 'same-as-shipped'
        ? 'the option that matches the state the shown handler produces'
        : rule.kind === 'reproduces'
          ? `the option that reproduces ${formatOutcome(rule.trace)}`
          : `the option that ${rule.requirement}`,
  };
}

/** A whole handler as an option: its code, saying first how its statements commit when that is on a pool. */
function codeLabel(code: CodeSnippet, handler: ShownHandler): string {
  return handler.commits === 'each' ? `// on a pool: each statement commits on its own\n${code.source}` : code.source;
}

function snippet(inputs: AssemblyInputs, handler: ShownHandler): CodeSnippet {
  return {
    handler: `${handler.moduleId}#${handler.name}`,
    language: 'typescript',
    source: inputs.code.extract(handlerFile(inputs, handler), handler.name).source,
    flaggedBy: handler.flaggedBy,
    ...(handler.unflaggedBecause ? { unflaggedBecause: handler.unflaggedBecause } : {}),
  };
}

function handlerFile(inputs: AssemblyInputs, handler: ShownHandler): string {
  return join(inputs.files.folder, 'handlers', `${handler.moduleId}.ts`);
}

function matchAnchors(
  inText: readonly string[],
  inCode: readonly string[],
  textFile: string,
  kind: string,
  codeFile: string,
): void {
  const missingCode = inText.filter((anchor) => !inCode.includes(anchor));
  if (missingCode.length > 0)
    throw new LessonFileError(textFile, `${kind} ${missingCode.join(', ')}`, `has no runnable ${kind} in ${codeFile}`);
  const missingText = inCode.filter((anchor) => !inText.includes(anchor));
  if (missingText.length > 0)
    throw new LessonFileError(
      textFile,
      `${kind} ${missingText.join(', ')}`,
      `is missing: ${codeFile} runs it but the text does not describe it`,
    );
}

function places(
  lesson: Omit<BuiltLesson, 'places' | 'recordedRaces'>,
  ruleLinks: AssemblyInputs['ruleLinks'],
  textFile: string,
): Place[] {
  const ordered: { anchor: string; title: string }[] = [
    { anchor: lesson.predict.anchor, title: lesson.predict.title },
    { anchor: lesson.thirtySeconds.anchor, title: lesson.thirtySeconds.title },
    ...lesson.steps.map((step) => ({ anchor: step.anchor, title: `Step ${step.number}` })),
    { anchor: lesson.analogy.anchor, title: lesson.analogy.title },
    ...lesson.examples.map((example) => ({ anchor: example.anchor, title: `${example.number} ${example.title}` })),
    ...lesson.questions.map((question) => ({ anchor: question.anchor, title: question.title })),
    ...lesson.tips.map((tip) => ({ anchor: tip.anchor, title: `Pro tip ${tip.number}` })),
    { anchor: 'sources', title: 'Sources' },
    { anchor: lesson.related.anchor, title: lesson.related.title },
  ];
  const result = ordered.map((place) => ({ ...place, rules: [] as RuleId[] }));
  for (const [rule, link] of Object.entries(ruleLinks)) {
    if (link.lesson !== lesson.id) continue;
    for (const anchor of [link.anchor, ...link.seeAlso]) {
      const place = result.find((candidate) => candidate.anchor === anchor);
      if (!place)
        throw new LessonFileError(
          textFile,
          anchor,
          `eslint-plugin-idempotency links rule ${rule} here, but the lesson has no such place`,
        );
      place.rules.push(rule as RuleId);
    }
  }
  return result;
}
