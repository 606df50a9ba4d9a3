import { JsonReader } from './json-reader.js';
import { builtLessonFormat, type BuiltLesson, type BuiltQuestion, type CodeSnippet } from './model.js';

/**
 * Checks that a value is a lesson as `npm run build` writes it, before a host renders it. A lesson
 * built by another version of this package, or a truncated file, fails here with the field that is
 * wrong instead of somewhere in the middle of rendering.
 */
export function parseBuiltLesson(json: unknown, origin: string): BuiltLesson {
  const lesson = new JsonReader(origin, json);
  const format = lesson.field('format').number();
  if (format !== builtLessonFormat)
    lesson.field('format').fail(`is ${format}; this package reads format ${builtLessonFormat}, so rebuild the lesson`);
  lesson.field('id').string();
  lesson.field('title').string();
  lesson.field('thesisHtml').string();
  lesson.field('checkedOn').string();
  checkQuestion(lesson.field('predict'));
  checkSection(lesson.field('thirtySeconds'), ['anchor', 'title', 'html']);
  for (const step of lesson.field('steps').items()) checkSection(step, ['anchor', 'html']);
  checkSection(lesson.field('analogy'), ['anchor', 'title', 'storyHtml', 'limitsHtml']);
  for (const example of lesson.field('examples').items()) {
    checkSection(example, ['anchor', 'number', 'title', 'html']);
    const code = example.field('code').items();
    code.forEach(checkCode);
    const captions = example.field('captions').items();
    captions.forEach((caption) => caption.string());
    if (captions.length !== code.length)
      example.field('captions').fail(`has ${captions.length} captions for ${code.length} handlers`);
  }
  for (const question of lesson.field('questions').items()) checkQuestion(question);
  for (const exercise of lesson.field('exercises').items()) {
    checkSection(exercise, ['anchor', 'id', 'rule', 'title', 'task', 'starter']);
    for (const schedule of exercise.field('schedules').items()) checkSection(schedule, ['name', 'story']);
  }
  for (const tip of lesson.field('tips').items()) checkSection(tip, ['anchor', 'adviceHtml', 'whenHtml', 'verifyHtml']);
  for (const source of lesson.field('sources').items())
    checkSection(source, ['id', 'title', 'url', 'fetched', 'noteHtml']);
  checkSection(lesson.field('related'), ['anchor', 'title']);
  for (const topic of lesson.field('related').field('topics').items()) checkSection(topic, ['title', 'html']);
  for (const place of lesson.field('places').items()) {
    checkSection(place, ['anchor', 'title']);
    place
      .field('rules')
      .items()
      .forEach((rule) => rule.string());
  }
  const recorded = lesson.field('recordedRaces');
  if (recorded.raw() !== null) {
    checkSection(recorded, ['recordedOn', 'engine']);
    for (const race of recorded.field('races').items()) {
      checkSection(race, ['anchor', 'label', 'line']);
      race
        .field('timeline')
        .items()
        .forEach((event) => checkSection(event, ['worker', 'text']));
    }
  }
  return json as BuiltLesson;
}

function checkSection(section: JsonReader, textFields: readonly string[]): void {
  for (const name of textFields) section.field(name).string();
}

function checkQuestion(question: JsonReader): void {
  checkSection(question, ['anchor', 'title', 'scenarioHtml', 'promptHtml', 'answer', 'criterion']);
  const optionIds = question
    .field('options')
    .items()
    .map((option) => {
      checkSection(option, ['id', 'label', 'explanationHtml']);
      option.field('labelKind').oneOf(['outcome', 'code'] as const);
      checkCode(option.field('code'));
      return option.field('id').string();
    });
  question.field('answer').oneOf(optionIds);
  if (question.field('code').raw() !== null) checkCode(question.field('code'));
  question
    .field('deliveries')
    .items()
    .forEach((delivery) => delivery.field('worker').string());
}

function checkCode(code: JsonReader): void {
  checkSection(code, ['handler', 'source']);
  code.field('language').oneOf(['typescript'] satisfies CodeSnippet['language'][]);
  code
    .field('flaggedBy')
    .items()
    .forEach((rule) => rule.string());
}

/** Every place of a lesson a link may open, e.g. to check `idempotent-consumers#q1` before opening it. */
export function lessonAnchors(lesson: BuiltLesson): string[] {
  return lesson.places.map((place) => place.anchor);
}

/** The prediction and the quiz, in reading order. */
export function allQuestions(lesson: BuiltLesson): BuiltQuestion[] {
  return [lesson.predict, ...lesson.questions];
}
