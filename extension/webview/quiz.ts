import {
  describeFailure,
  type BuiltLesson,
  type BuiltQuestion,
  type HandlerRun,
  type LessonRunner,
  type QuestionCheck,
} from '@idempotency/lessons';

import type { PanelState, QuestionResult } from './panel-state.js';

/**
 * The lesson's interactive parts: predict, then run. A choice is recorded the moment it is made;
 * running executes the handlers on the panel's database and shows what PostgreSQL computed beside
 * the choice, with the lesson's explanation of the difference.
 */
export class Quiz {
  private runner: LessonRunner | undefined;

  constructor(
    private readonly root: Document,
    private readonly lesson: BuiltLesson,
    private readonly state: PanelState,
    private readonly save: () => void,
  ) {
    for (const question of this.questions()) {
      const chosen = state.choices[question.anchor];
      const input = chosen ? this.input(question.anchor, chosen) : undefined;
      if (input) input.checked = true;
      const check = state.checks[question.anchor];
      if (check) this.showCheck(question, check);
    }
    for (const [anchor, line] of Object.entries(state.examples)) this.output(anchor).textContent = line;

    root.addEventListener('change', (event) => {
      const input = event.target as HTMLInputElement;
      const anchor = input.closest<HTMLElement>('[data-question]')?.dataset.question;
      if (anchor && input.type === 'radio') {
        this.state.choices[anchor] = input.value;
        // A verdict belongs to the answer that was run; a new choice has not been run yet.
        if (this.state.checks[anchor]?.choice !== input.value) {
          delete this.state.checks[anchor];
          this.output(anchor).replaceChildren();
        }
        this.save();
      }
    });
    root.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>(
        'button[data-run-question], button[data-run-example]',
      );
      if (!button || button.disabled) return;
      if (button.dataset.runQuestion) void this.runQuestion(button.dataset.runQuestion, button);
      if (button.dataset.runExample) void this.runExample(button.dataset.runExample, button);
    });
  }

  /** The database is up: run buttons work from now on. */
  enable(runner: LessonRunner): void {
    this.runner = runner;
    for (const button of this.buttons()) {
      button.disabled = false;
      button.removeAttribute('title');
    }
  }

  /** Until the database is ready (or if it never is), the buttons say why they do nothing. */
  waiting(reason: string): void {
    for (const button of this.buttons()) {
      button.disabled = true;
      button.title = reason;
    }
  }

  private async runQuestion(anchor: string, button: HTMLButtonElement): Promise<void> {
    const question = this.questions().find((each) => each.anchor === anchor);
    const choice = this.state.choices[anchor];
    const verdict = this.output(anchor);
    if (!question || !this.runner) return;
    if (!choice) {
      verdict.textContent = 'Pick an answer first: the point is to predict before the database shows you.';
      this.root.querySelector<HTMLInputElement>(`[data-question="${anchor}"] input[type="radio"]`)?.focus();
      return;
    }
    button.disabled = true;
    verdict.textContent = 'Running on PostgreSQL…';
    try {
      const result = summarise(await this.runner.checkQuestion(anchor), choice);
      this.state.checks[anchor] = result;
      this.save();
      this.showCheck(question, result);
    } catch (error) {
      verdict.textContent = `This question could not run: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      button.disabled = false;
    }
  }

  private async runExample(anchor: string, button: HTMLButtonElement): Promise<void> {
    if (!this.runner) return;
    const output = this.output(anchor);
    button.disabled = true;
    output.textContent = 'Running on PostgreSQL…';
    try {
      const result = await this.runner.runExample(anchor);
      const line = result.ok ? result.line : `${result.number} ${describeFailure(result.failure)}`;
      output.textContent = line;
      this.state.examples[anchor] = line;
      this.save();
    } catch (error) {
      output.textContent = `This example could not run: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      button.disabled = false;
    }
  }

  /**
   * The same rows for every question: the prediction, what PostgreSQL computed for it, and, when
   * it is not right, what PostgreSQL computed for the answer it proves right.
   */
  private showCheck(question: BuiltQuestion, result: QuestionResult): void {
    const verdict = this.output(question.anchor);
    const labelOf = (id: string) => question.options.find((option) => option.id === id)?.label ?? id;
    const right = result.provenRight.includes(result.choice);
    const explanation = (id: string) => question.options.find((option) => option.id === id)?.explanationHtml ?? '';
    const [provenRight] = result.provenRight;
    const rows: { term: string; option?: string; value: string; role: string }[] = [
      { term: 'Your answer', option: result.choice, value: labelOf(result.choice), role: 'prediction' },
      { term: 'PostgreSQL computed for it', value: result.chosen, role: 'computed' },
    ];
    if (!right && provenRight && result.right !== undefined) {
      rows.push({
        term: 'PostgreSQL computed for the right answer',
        option: provenRight,
        value: result.right,
        role: 'right',
      });
    }
    verdict.replaceChildren();
    const table = this.root.createElement('dl');
    table.className = 'comparison';
    for (const { term, option, value, role } of rows) {
      const dt = this.root.createElement('dt');
      dt.textContent = term;
      const dd = this.root.createElement('dd');
      if (option) {
        const id = this.root.createElement('span');
        id.className = 'option-id';
        id.textContent = option;
        dd.append(id, ' ');
      }
      const code = this.root.createElement('code');
      code.textContent = value;
      code.dataset[role] = '';
      dd.append(code);
      table.append(dt, dd);
    }
    const judgement = this.root.createElement('p');
    judgement.className = right ? 'judgement right' : 'judgement wrong';
    judgement.textContent = right
      ? `Right: the database proves ${result.choice} (${result.criterion}).`
      : `Not this time: the database proves ${result.provenRight.join(', ') || 'no option'} (${result.criterion}).`;
    const why = this.root.createElement('div');
    why.className = 'explanation';
    // Explanations are the lesson's own HTML, rendered from its Markdown at build time.
    why.innerHTML = explanation(result.choice) + (right ? '' : result.provenRight.map(explanation).join(''));
    verdict.append(table, judgement, why);
  }

  private questions(): BuiltQuestion[] {
    return [this.lesson.predict, ...this.lesson.questions];
  }

  private buttons(): HTMLButtonElement[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>('button[data-run-question], button[data-run-example]')];
  }

  private output(anchor: string): HTMLElement {
    return this.root.querySelector<HTMLElement>(`[data-result-for="${anchor}"]`)!;
  }

  private input(anchor: string, option: string): HTMLInputElement | null {
    return this.root.querySelector<HTMLInputElement>(`[data-question="${anchor}"] input[value="${option}"]`);
  }
}

function summarise(check: QuestionCheck, choice: string): QuestionResult {
  const stateOf = (run: HandlerRun | undefined) =>
    !run ? 'not run' : run.ok ? run.text : describeFailure(run.failure);
  const [right] = check.provenRight;
  return {
    choice,
    chosen: stateOf(check.options[choice]),
    provenRight: [...check.provenRight],
    right: right === undefined ? undefined : stateOf(check.options[right]),
    criterion: check.criterion,
  };
}
