import type { PGlite } from '@electric-sql/pglite';

import type { PanelState } from './panel-state';

export interface Runners {
  enable(open: () => Promise<PGlite>): void;
  unavailable(): void;
}

/** Placeholder until the lessons package's runner is wired in: checks the database answers. */
export function attachRunners(root: Document, _state: PanelState, _save: () => void): Runners {
  const buttons = () => [...root.querySelectorAll<HTMLButtonElement>('button[data-run]')];
  return {
    enable(open) {
      for (const button of buttons()) {
        button.disabled = false;
        button.addEventListener('click', async () => {
          const db = await open();
          const result = await db.query<{ answer: number }>('SELECT 40 + 2 AS answer');
          const output = root.querySelector(`output[data-result-for="${button.dataset.run}"]`);
          if (output) output.textContent = `answer=${result.rows[0]?.answer}`;
        });
      }
    },
    unavailable() {
      for (const button of buttons()) button.disabled = true;
    },
  };
}
