import type { ExerciseCheck, LessonRunner, RunnableLesson, ScheduleRun } from '@idempotency/lessons';

import type { PanelState } from './panel-state.js';

/**
 * The exercises: the learner edits a handler in its text box and checks it on the panel's
 * database. The result lists every schedule with the durable state it left, names the one that
 * broke the handler, and gives that schedule's hint; after a first check the model solution is one
 * click away. What the learner typed, and that they tried, is kept with the panel's progress.
 */
export class Exercises {
  private runner: LessonRunner | undefined;

  constructor(
    private readonly root: Document,
    private readonly lesson: RunnableLesson,
    private readonly state: PanelState,
    private readonly save: () => void,
  ) {
    for (const form of root.querySelectorAll<HTMLFormElement>('form[data-exercise-form]')) {
      const id = form.dataset.exerciseForm!;
      const saved = state.exercises[id];
      if (saved) {
        form.querySelector('textarea')!.value = saved.text;
        if (saved.tried) this.offerModel(id);
      }
      form.addEventListener('submit', (event) => {
        event.preventDefault();
        void this.check(id, form);
      });
      form.querySelector('textarea')!.addEventListener('input', (event) => {
        this.state.exercises[id] = {
          text: (event.target as HTMLTextAreaElement).value,
          tried: this.state.exercises[id]?.tried ?? false,
        };
        this.save();
      });
    }
    root.addEventListener('click', (event) => {
      const button = (event.target as HTMLElement).closest<HTMLButtonElement>(
        'button[data-exercise-reset], button[data-exercise-model], button[data-exercise-use-model]',
      );
      if (!button || button.disabled) return;
      if (button.dataset.exerciseReset) this.reset(button.dataset.exerciseReset);
      if (button.dataset.exerciseModel) this.showModel(button.dataset.exerciseModel);
      if (button.dataset.exerciseUseModel) this.useModel(button.dataset.exerciseUseModel);
    });
  }

  /** The database is up: the check buttons work from now on. */
  enable(runner: LessonRunner): void {
    this.runner = runner;
    for (const button of this.checkButtons()) {
      button.disabled = false;
      button.removeAttribute('title');
    }
  }

  /** Until the database is ready (or if it never is), the check buttons say why they do nothing. */
  waiting(reason: string): void {
    for (const button of this.checkButtons()) {
      button.disabled = true;
      button.title = reason;
    }
  }

  private async check(id: string, form: HTMLFormElement): Promise<void> {
    const button = form.querySelector<HTMLButtonElement>('button[type="submit"]')!;
    if (!this.runner || button.disabled) return;
    const output = this.result(id);
    const text = form.querySelector('textarea')!.value;
    button.disabled = true;
    output.textContent = 'Running on PostgreSQL…';
    try {
      this.show(id, await this.runner.checkExercise(id, text));
      this.state.exercises[id] = { text, tried: true };
      this.save();
      this.offerModel(id);
    } catch (error) {
      output.textContent = `This exercise could not run: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      button.disabled = false;
    }
  }

  private show(id: string, check: ExerciseCheck): void {
    const output = this.result(id);
    output.replaceChildren();
    if (!check.ok) {
      output.append(this.paragraph('judgement wrong', `The checker could not read your handler: ${check.error}`));
      return;
    }
    const broken = check.runs.filter((run) => run.broken !== null);
    output.append(
      this.paragraph(
        check.passed ? 'judgement right' : 'judgement wrong',
        check.passed
          ? 'Passed: every schedule left the right state.'
          : `Broken by: ${broken.map((run) => run.schedule).join(', ')}.`,
      ),
    );
    const list = this.root.createElement('ol');
    list.className = 'schedule-runs';
    list.append(...check.runs.map((run) => this.scheduleRun(run)));
    output.append(list);
  }

  /** One schedule: what happened, the deliveries' fates, the state left, and for a broken one why and a hint. */
  private scheduleRun(run: ScheduleRun): HTMLLIElement {
    const item = this.root.createElement('li');
    item.dataset.schedule = run.schedule;
    item.dataset.broken = run.broken === null ? 'no' : 'yes';
    const title = this.root.createElement('strong');
    title.textContent = `${run.schedule}: ${run.broken === null ? 'right' : 'broken'}`;
    item.append(title, this.paragraph('story', run.story));
    if (run.deliveries.length > 0) item.append(this.codeLine('Deliveries', run.deliveries.join(', '), 'deliveries'));
    item.append(this.codeLine('Durable state', run.state, 'state'));
    if (run.broken !== null) item.append(this.paragraph('broken', `What is wrong: ${run.broken}`));
    if (run.hint) item.append(this.paragraph('hint', `Hint: ${run.hint}`));
    return item;
  }

  private offerModel(id: string): void {
    const button = this.root.querySelector<HTMLButtonElement>(`button[data-exercise-model="${id}"]`);
    if (!button) return;
    button.disabled = false;
    button.removeAttribute('title');
  }

  private showModel(id: string): void {
    const exercise = this.lesson.exercises.find((each) => each.id === id);
    const holder = this.root.querySelector<HTMLElement>(`[data-exercise-model-for="${id}"]`);
    if (!exercise || !holder) return;
    const heading = this.paragraph('model-title', 'The model solution:');
    const pre = this.root.createElement('pre');
    pre.tabIndex = 0;
    pre.textContent = exercise.model;
    const use = this.root.createElement('button');
    use.type = 'button';
    use.dataset.exerciseUseModel = id;
    use.textContent = 'Put it in the editor';
    holder.replaceChildren(heading, pre, use);
    holder.hidden = false;
  }

  private useModel(id: string): void {
    const exercise = this.lesson.exercises.find((each) => each.id === id);
    if (exercise) this.setText(id, exercise.model);
  }

  private reset(id: string): void {
    const exercise = this.lesson.exercises.find((each) => each.id === id);
    if (!exercise) return;
    this.setText(id, exercise.starter);
    this.result(id).replaceChildren();
  }

  private setText(id: string, text: string): void {
    const textarea = this.root.querySelector<HTMLTextAreaElement>(`form[data-exercise-form="${id}"] textarea`);
    if (!textarea) return;
    textarea.value = text;
    this.state.exercises[id] = { text, tried: this.state.exercises[id]?.tried ?? false };
    this.save();
  }

  private paragraph(className: string, text: string): HTMLParagraphElement {
    const paragraph = this.root.createElement('p');
    paragraph.className = className;
    paragraph.textContent = text;
    return paragraph;
  }

  private codeLine(term: string, value: string, role: string): HTMLParagraphElement {
    const paragraph = this.root.createElement('p');
    const code = this.root.createElement('code');
    code.textContent = value;
    code.dataset[role] = '';
    paragraph.append(`${term}: `, code);
    return paragraph;
  }

  private checkButtons(): HTMLButtonElement[] {
    return [...this.root.querySelectorAll<HTMLButtonElement>('form[data-exercise-form] button[type="submit"]')];
  }

  private result(id: string): HTMLElement {
    return this.root.querySelector<HTMLElement>(`[data-exercise-result-for="${id}"]`)!;
  }
}
