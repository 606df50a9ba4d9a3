import { describeFailure, formatStatementResults, type LessonRunner } from '@idempotency/lessons';

/**
 * A SQL console per example, on the panel's own PGlite: what the learner types runs against the
 * database that example's run left, and a mistake comes back as PostgreSQL's message. The panel has
 * one database, so when another item ran since, the example runs again first, and says so.
 */
export function attachConsoles(root: Document, runner: LessonRunner): void {
  let databaseOf: string | undefined;
  runner.onRun((event) => {
    databaseOf = event.kind === 'example' ? event.anchor : undefined;
  });
  for (const form of root.querySelectorAll<HTMLFormElement>('form[data-console-for]')) {
    const anchor = form.dataset.consoleFor!;
    const input = form.querySelector('textarea')!;
    const button = form.querySelector('button')!;
    const output = root.querySelector<HTMLElement>(`[data-console-output-for="${anchor}"]`)!;
    button.disabled = false;
    button.removeAttribute('title');
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      void run();
    });
    // Ctrl+Enter (or Cmd+Enter) runs, as in most SQL consoles; Enter alone starts a new line.
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        void run();
      }
    });

    async function run(): Promise<void> {
      const sql = input.value.trim();
      if (!sql) {
        output.textContent = 'Type a statement first, for example SELECT * FROM inbox;';
        return;
      }
      button.disabled = true;
      output.textContent = 'Running…';
      try {
        let before = '';
        if (databaseOf !== anchor) {
          const result = await runner.runExample(anchor);
          before = `${result.ok ? result.line : `${result.number} ${describeFailure(result.failure)}`}\n(the example ran first, so this runs on the database it left)\n\n`;
        }
        const answer = await runner.runSql(sql);
        output.textContent = before + (answer.ok ? formatStatementResults(answer.results) : `ERROR: ${answer.error}`);
      } catch (error) {
        output.textContent = `The console could not run this: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        button.disabled = false;
      }
    }
  }
}
