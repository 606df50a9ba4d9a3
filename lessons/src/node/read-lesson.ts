import type { BuiltExample, BuiltLesson, BuiltQuestion, CodeSnippet } from '../model.js';
import { plainText } from './plain-text.js';
import type { Terminal } from './terminal.js';

/**
 * The lesson as text for a terminal, in reading order, or one place of it. Nothing here runs: each
 * part says which command runs what it describes.
 */

/** The names `read` accepts for a place besides its anchor: `4.5` for an example, `tips` for every tip. */
export function placeNamed(lesson: BuiltLesson, name: string): string | undefined {
  const anchors = lesson.places.map((place) => place.anchor);
  if (anchors.includes(name) || name === 'steps' || name === 'examples' || name === 'questions' || name === 'tips')
    return name;
  const example = lesson.examples.find((candidate) => candidate.number === name);
  if (example) return example.anchor;
  if (/^\d+$/.test(name) && anchors.includes(`step-${name}`)) return `step-${name}`;
  return undefined;
}

export function readLesson(lesson: BuiltLesson, terminal: Terminal, only?: string): string {
  const parts: { anchor: string; group: string; text: () => string }[] = [
    {
      anchor: 'title',
      group: 'title',
      text: () => `${terminal.style('bold', lesson.title)}\n\n${terminal.prose(plainText(lesson.thesisHtml))}`,
    },
    {
      anchor: lesson.predict.anchor,
      group: 'predict',
      text: () => question(lesson.predict, terminal, 'Predict before you read'),
    },
    {
      anchor: lesson.thirtySeconds.anchor,
      group: 'thirty-seconds',
      text: () => section(terminal, lesson.thirtySeconds.title, lesson.thirtySeconds.html),
    },
    ...lesson.steps.map((step) => ({
      anchor: step.anchor,
      group: 'steps',
      text: () => section(terminal, `Step ${step.number} of ${lesson.steps.length}`, step.html),
    })),
    { anchor: lesson.analogy.anchor, group: 'analogy', text: () => analogy(lesson, terminal) },
    ...lesson.examples.map((item) => ({ anchor: item.anchor, group: 'examples', text: () => example(item, terminal) })),
    ...lesson.questions.map((item) => ({
      anchor: item.anchor,
      group: 'questions',
      text: () => question(item, terminal, `Question ${item.number} of ${lesson.questions.length}`),
    })),
    ...lesson.tips.map((tip) => ({
      anchor: tip.anchor,
      group: 'tips',
      text: () =>
        [
          heading(terminal, `Tip ${tip.number}`),
          terminal.prose(plainText(tip.adviceHtml)),
          terminal.labelled('When: ', plainText(tip.whenHtml)),
          terminal.labelled('Check: ', plainText(tip.verifyHtml)),
        ].join('\n'),
    })),
    {
      anchor: 'sources',
      group: 'sources',
      text: () =>
        [
          heading(terminal, 'Sources'),
          ...lesson.sources.map((source) =>
            terminal.labelled(
              `[${source.id}] `,
              `${source.publisher}, ${source.title}, ${source.url} (read ${source.fetched}). ${plainText(source.noteHtml, ' ')}`,
            ),
          ),
        ].join('\n'),
    },
    {
      anchor: lesson.related.anchor,
      group: 'related',
      text: () =>
        [
          heading(terminal, lesson.related.title),
          ...lesson.related.topics.map((topic) => terminal.labelled(`${topic.title}: `, plainText(topic.html, ' '))),
        ].join('\n'),
    },
  ];
  const chosen = only === undefined ? parts : parts.filter((part) => part.anchor === only || part.group === only);
  return chosen.map((part) => part.text()).join('\n\n');
}

function heading(terminal: Terminal, title: string): string {
  return terminal.style('bold', title);
}

function section(terminal: Terminal, title: string, html: string): string {
  return `${heading(terminal, title)}\n${terminal.prose(plainText(html, '\n\n'))}`;
}

function code(snippet: CodeSnippet, caption: string, terminal: Terminal): string {
  return `${terminal.style('italic', caption)}:\n\n${snippet.source.replace(/^(?=.)/gm, '    ')}`;
}

function analogy(lesson: BuiltLesson, terminal: Terminal): string {
  const width = Math.max(...lesson.analogy.mapping.map((row) => row.analogy.length));
  return [
    heading(terminal, lesson.analogy.title),
    terminal.prose(plainText(lesson.analogy.storyHtml, '\n\n')),
    '',
    ...lesson.analogy.mapping.map((row) => `  ${row.analogy.padEnd(width)}  ->  ${row.consumer}`),
    '',
    terminal.prose(plainText(lesson.analogy.limitsHtml, '\n\n')),
  ].join('\n');
}

function example(item: BuiltExample, terminal: Terminal): string {
  return [
    heading(terminal, `Example ${item.number}: ${item.title}`),
    terminal.prose(plainText(item.html, '\n\n')),
    ...item.code.map((snippet, index) => `\n${code(snippet, item.captions[index] ?? snippet.handler, terminal)}`),
    '',
    terminal.style(
      'dim',
      `Run it: npm run lesson -- examples (add --transcript for its SQL); explore its tables: npm run lesson -- console ${item.number}`,
    ),
  ].join('\n');
}

function question(item: BuiltQuestion, terminal: Terminal, title: string): string {
  return [
    heading(terminal, title),
    terminal.prose(plainText(item.scenarioHtml, '\n\n')),
    ...(item.observed ? [`  observed: ${item.observed}`] : []),
    ...(item.code ? ['', code(item.code, 'The handler', terminal)] : []),
    '',
    terminal.prose(plainText(item.promptHtml)),
    terminal.style('dim', 'Answer it and see it run: npm run lesson -- take'),
  ].join('\n');
}
