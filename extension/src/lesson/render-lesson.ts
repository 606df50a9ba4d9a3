import {
  formatTimeline,
  type BuiltExample,
  type BuiltExercise,
  type BuiltLesson,
  type BuiltQuestion,
  type CodeSnippet,
  type RecordedRaces,
} from '@idempotency/lessons';

/**
 * The whole lesson as the panel's HTML, rendered on the extension host so the text is readable the
 * moment the panel opens, before the page's script or the database start (and if they never do).
 * Fields named `…Html` were rendered from the lesson's own Markdown at build time with raw HTML
 * disabled, so they are inserted as markup; every other string is escaped.
 */
export function renderLesson(lesson: BuiltLesson): string {
  const stepTitles = new Map(lesson.places.map((place) => [place.anchor, place.title]));
  const practise = (anchor: string) => practiseLinks(lesson, anchor);
  return [
    `<header class="lesson-header">`,
    `<h1 id="top" tabindex="-1">${text(lesson.title)}</h1>`,
    `<div class="thesis">${lesson.thesisHtml}</div>`,
    `<p class="checked-on">Checked against the tools and documents it cites as of ${text(lesson.checkedOn)}.</p>`,
    `</header>`,
    renderContents(lesson),
    renderQuestion(lesson.predict, 'h2'),
    section(lesson.thirtySeconds.anchor, lesson.thirtySeconds.title, lesson.thirtySeconds.html),
    `<section aria-labelledby="how-it-works"><h2 id="how-it-works">How it works, in ${lesson.steps.length} steps</h2><ol class="steps">`,
    ...lesson.steps.map(
      (step) =>
        `<li id="${attribute(step.anchor)}" aria-label="${attribute(stepTitles.get(step.anchor) ?? `Step ${step.number}`)}">${step.html}</li>`,
    ),
    `</ol></section>`,
    `<section id="${attribute(lesson.analogy.anchor)}"><h2>${text(lesson.analogy.title)}</h2>${lesson.analogy.storyHtml}`,
    `<table class="mapping"><thead><tr><th scope="col">In the workshop</th><th scope="col">In the consumer</th></tr></thead><tbody>`,
    ...lesson.analogy.mapping.map((row) => `<tr><td>${text(row.analogy)}</td><td>${text(row.consumer)}</td></tr>`),
    `</tbody></table>${lesson.analogy.limitsHtml}</section>`,
    `<section aria-labelledby="examples"><h2 id="examples">Examples, run for real</h2>`,
    ...lesson.examples.map((example) => renderExample(example, lesson.recordedRaces, practise(example.anchor))),
    `</section>`,
    `<section aria-labelledby="quiz"><h2 id="quiz">Try it</h2><p>Pick your answer first, then run it: the panel executes the handlers on PostgreSQL and shows what the database holds afterwards.</p>`,
    ...lesson.questions.map((question) => renderQuestion(question, 'h3', practise(question.anchor))),
    `</section>`,
    renderExercises(lesson.exercises),
    `<section aria-labelledby="go-deeper"><h2 id="go-deeper">Go deeper</h2>`,
    ...lesson.tips.map(
      (tip) =>
        `<article id="${attribute(tip.anchor)}" class="tip"><h3>Pro tip ${tip.number}</h3>${tip.adviceHtml}<h4>When</h4>${tip.whenHtml}<h4>How to verify</h4>${tip.verifyHtml}</article>`,
    ),
    `</section>`,
    `<section id="sources"><h2>Sources</h2><ul class="sources">`,
    ...lesson.sources.map(
      (source) =>
        `<li id="source-${attribute(source.id)}"><strong>[${text(source.id)}]</strong> ${text(source.publisher)}, <a href="${attribute(source.url)}">${text(source.title)}</a>, fetched ${text(source.fetched)}${source.sha256 ? `; SHA-256 <code class="hash">${text(source.sha256)}</code>` : ''}.${source.noteHtml}</li>`,
    ),
    `</ul></section>`,
    renderRelated(lesson),
  ].join('\n');
}

/** The neighbouring topics, then every rule of the plugin with the sections of this lesson it opens. */
function renderRelated(lesson: BuiltLesson): string {
  const topics = lesson.related.topics.map((topic) => `<h3>${text(topic.title)}</h3>${topic.html}`);
  const rules = [...new Set(lesson.places.flatMap((place) => place.rules))].map((rule) => {
    const places = lesson.places.filter((place) => place.rules.includes(rule));
    const exercise = lesson.exercises.find((each) => each.rule === rule);
    const links = [
      ...places.map((place) => `<a href="#${attribute(place.anchor)}">${text(place.title)}</a>`),
      ...(exercise ? [`exercise <a href="#${attribute(exercise.anchor)}">${text(exercise.title)}</a>`] : []),
    ];
    return `<li><code>${text(rule)}</code>: ${links.join(', ')}</li>`;
  });
  return `<section id="${attribute(lesson.related.anchor)}"><h2>${text(lesson.related.title)}</h2>${topics.join('')}<ul class="rule-places">${rules.join('')}</ul></section>`;
}

function renderContents(lesson: BuiltLesson): string {
  const shown = lesson.places.filter((place) => !place.anchor.startsWith('step-') || place.anchor === 'step-1');
  const links = shown.map(
    (place) =>
      `<li><a href="#${attribute(place.anchor)}">${text(place.anchor === 'step-1' ? 'How it works' : place.title)}</a></li>`,
  );
  // The exercises come after the quiz, as on the page.
  const afterQuiz = links.findIndex((_, index) => shown[index]?.anchor.startsWith('tip-'));
  if (lesson.exercises.length > 0)
    links.splice(afterQuiz < 0 ? links.length : afterQuiz, 0, `<li><a href="#exercises">Exercises</a></li>`);
  return `<nav class="contents" aria-label="Lesson contents"><ol>${links.join('')}</ol></nav>`;
}

function section(anchor: string, title: string, html: string): string {
  return `<section id="${attribute(anchor)}"><h2>${text(title)}</h2>${html}</section>`;
}

function renderCode(code: CodeSnippet, caption?: string): string {
  const flagged =
    code.flaggedBy.length > 0
      ? ` <span class="flag">flagged by ${code.flaggedBy.map(identifier).join(', ')}</span>`
      : '';
  return `<figure class="code"><figcaption>${text(caption ?? code.handler)}${flagged}</figcaption><pre tabindex="0"><code>${text(code.source)}</code></pre></figure>`;
}

function renderExample(example: BuiltExample, recorded: RecordedRaces | null, practise: string): string {
  return [
    `<article id="${attribute(example.anchor)}" class="example"><h3>${text(example.number)} ${text(example.title)}</h3>${example.html}`,
    practise,
    ...example.code.map((code, index) => renderCode(code, example.captions[index])),
    `<div class="run-row"><button type="button" data-run-example="${attribute(example.anchor)}" disabled>Run on PostgreSQL</button>`,
    `<output class="result" data-result-for="${attribute(example.anchor)}" aria-live="polite"></output></div>`,
    `<div class="evidence" data-evidence-for="${attribute(example.anchor)}"></div>`,
    renderRecordedRaces(example, recorded),
    renderConsole(example),
    `</article>`,
  ].join('\n');
}

/** What a real server did with this example's handlers when the races were last recorded. */
function renderRecordedRaces(example: BuiltExample, recorded: RecordedRaces | null): string {
  const races = recorded?.races.filter((race) => race.anchor === example.anchor) ?? [];
  if (!recorded || races.length === 0) return '';
  return [
    `<details class="recorded-races"><summary>Two workers at once, on a real server (recorded ${text(recorded.recordedOn)})</summary>`,
    `<p>PGlite in this panel has one connection, so it cannot race two workers. These timelines were recorded on ${text(recorded.engine)} on ${text(recorded.recordedOn)} with <code>npm run lesson -- record-races</code>; they were not run in this panel.</p>`,
    ...races.map(
      (race) => `<p><code>${text(race.line)}</code></p><pre tabindex="0">${text(formatTimeline(race.timeline))}</pre>`,
    ),
    `</details>`,
  ].join('\n');
}

/** A SQL console on the example's database; the page's script enables it once PGlite is up. */
function renderConsole(example: BuiltExample): string {
  const id = `console-${attribute(example.anchor)}`;
  return [
    `<details class="sql-console"><summary>Try your own SQL on this example's database</summary>`,
    `<p>Runs in this panel on PGlite, against the tables example ${text(example.number)} left; nothing leaves your machine, and the next run starts afresh.</p>`,
    `<form data-console-for="${attribute(example.anchor)}"><label for="${id}">SQL (Ctrl+Enter runs it)</label>`,
    `<textarea id="${id}" rows="3" spellcheck="false" placeholder="SELECT * FROM inbox;"></textarea>`,
    `<button type="submit" disabled title="The practice database is still starting">Run SQL</button></form>`,
    `<pre class="console-output" data-console-output-for="${attribute(example.anchor)}" aria-live="polite" tabindex="0"></pre></details>`,
  ].join('\n');
}

/** At a place that teaches a rule, a link to the exercise that practises it. */
function practiseLinks(lesson: BuiltLesson, anchor: string): string {
  const rules = lesson.places.find((place) => place.anchor === anchor)?.rules ?? [];
  const exercises = lesson.exercises.filter((exercise) => rules.includes(exercise.rule));
  if (exercises.length === 0) return '';
  const links = exercises.map((exercise) => `<a href="#${attribute(exercise.anchor)}">${text(exercise.title)}</a>`);
  return `<p class="practise">Practise it: ${links.join(', ')}</p>`;
}

/**
 * The exercises: a handler to mend in a text box, checked on the panel's PGlite by the schedules
 * listed under it. The page's script enables the buttons once the database is up.
 */
function renderExercises(exercises: readonly BuiltExercise[]): string {
  if (exercises.length === 0) return '';
  return [
    `<section aria-labelledby="exercises"><h2 id="exercises">Exercises: mend a handler</h2>`,
    `<p>Each handler below makes one mistake a rule of the plugin reports. Edit its tables, its key or its SQL, then check it: the panel runs it on PostgreSQL the ways production hurts a consumer and shows the state each way left. The form: <code>table:</code> creates a table, <code>transaction: one</code> or <code>none</code> says whether the statements commit together, <code>key:</code> is a template of message fields (<code>{refundId}</code>), <code>run:</code> is one SQL statement in which <code>{field}</code> and <code>{key}</code> become parameters, and <code>stop if no row</code> or <code>stop if a row</code> under it ends the handler on that result.</p>`,
    ...exercises.map(renderExercise),
    `</section>`,
  ].join('\n');
}

function renderExercise(exercise: BuiltExercise): string {
  const id = attribute(exercise.id);
  const lines = exercise.starter.split('\n').length;
  return [
    `<article id="${attribute(exercise.anchor)}" class="exercise" data-exercise="${id}">`,
    `<h3>${text(exercise.title)}</h3>`,
    `<p class="exercise-rule">The mistake ${identifier(exercise.rule)} reports.</p>`,
    `<p>${text(exercise.task)}</p>`,
    `<p>The checker runs your handler, each time on a fresh database:</p><ul class="schedules">`,
    ...exercise.schedules.map(
      (schedule) => `<li><strong>${text(schedule.name)}</strong>: ${text(schedule.story)}</li>`,
    ),
    `</ul>`,
    `<form data-exercise-form="${id}"><label for="exercise-text-${id}">Your handler</label>`,
    `<textarea id="exercise-text-${id}" rows="${lines}" spellcheck="false">${text(exercise.starter)}</textarea>`,
    `<div class="run-row"><button type="submit" disabled title="The practice database is still starting">Check on PostgreSQL</button>`,
    `<button type="button" data-exercise-reset="${id}">Start over</button>`,
    `<button type="button" data-exercise-model="${id}" disabled title="Check a handler of your own first">Show the model solution</button></div></form>`,
    `<div class="exercise-result" data-exercise-result-for="${id}" aria-live="polite"></div>`,
    `<div class="exercise-model" data-exercise-model-for="${id}" hidden></div>`,
    `</article>`,
  ].join('\n');
}

function renderQuestion(question: BuiltQuestion, heading: 'h2' | 'h3', practise = ''): string {
  const deliveries = question.deliveries.length
    ? `<table class="deliveries"><caption>Arrivals, in order</caption><thead><tr><th scope="col">#</th><th scope="col">Worker</th><th scope="col">Message</th></tr></thead><tbody>${question.deliveries
        .map(
          (delivery, index) =>
            `<tr><td>${index + 1}</td><td>${text(delivery.worker)}</td><td><code>${Object.entries(delivery.message)
              .map(([field, value]) => `${text(field)}: ${identifier(String(value))}`)
              .join(', ')}</code></td></tr>`,
        )
        .join('')}</tbody></table>`
    : '';
  const options = question.options.map(
    (option) =>
      `<label class="option"><input type="radio" name="choice-${attribute(question.anchor)}" value="${attribute(option.id)}"><span class="option-id">${text(option.id)}</span><code class="option-label">${text(option.label)}</code></label>`,
  );
  return [
    `<article id="${attribute(question.anchor)}" class="question" data-question="${attribute(question.anchor)}">`,
    `<${heading}>${text(question.title)}</${heading}>`,
    question.scenarioHtml,
    question.observed ? `<p class="observed">Observed state: <code>${text(question.observed)}</code></p>` : '',
    deliveries,
    question.code ? renderCode(question.code, 'The handler in question') : '',
    question.promptHtml,
    practise,
    `<fieldset class="options"><legend>Your answer</legend>${options.join('')}</fieldset>`,
    `<div class="run-row"><button type="button" data-run-question="${attribute(question.anchor)}" disabled>Run on PostgreSQL</button></div>`,
    `<div class="result verdict" data-result-for="${attribute(question.anchor)}" aria-live="polite"></div>`,
    `<div class="evidence" data-evidence-for="${attribute(question.anchor)}"></div>`,
    `</article>`,
  ].join('\n');
}

/** Ids (`delivery-501`, a rule's name) stay whole on one line in a narrow panel. */
function identifier(value: string): string {
  return `<span class="id">${text(value)}</span>`;
}

function text(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;');
}
