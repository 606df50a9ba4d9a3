import { formatTranscript, type LessonRunner, type QuestionCheck, type Transcript } from '@idempotency/lessons';

/**
 * Under each result, the SQL that produced it: every worker's statements with their parameters and
 * row counts, the transaction boundaries, then the rows each table held. Collapsed until the
 * learner opens it, so the result itself stays the first thing to read.
 */
export function showEvidence(root: Document, runner: LessonRunner): void {
  runner.onRun((event) => {
    const container = root.querySelector<HTMLElement>(`[data-evidence-for="${event.anchor}"]`);
    if (!container) return;
    const shown: [string, Transcript][] =
      event.kind === 'example' ? [['The SQL that ran', event.result.transcript]] : questionTranscripts(event.check);
    container.replaceChildren(
      ...shown.map(([title, transcript]) => collapsed(root, title, formatTranscript(transcript))),
    );
  });
}

function questionTranscripts(check: QuestionCheck): [string, Transcript][] {
  return [
    ...(check.shipped ? [['The SQL the shown handler ran', check.shipped.transcript] as [string, Transcript]] : []),
    ...Object.entries(check.options).map(([id, run]): [string, Transcript] => [
      `The SQL option ${id} ran`,
      run.transcript,
    ]),
  ];
}

function collapsed(root: Document, title: string, text: string): HTMLDetailsElement {
  const details = root.createElement('details');
  details.className = 'transcript';
  const summary = root.createElement('summary');
  summary.textContent = title;
  const pre = root.createElement('pre');
  pre.tabIndex = 0;
  pre.textContent = text;
  details.append(summary, pre);
  return details;
}
