/** What the panel's page needs to know; every URI is already a webview URI. */
export interface LessonPageInput {
  /** `webview.cspSource`: the origin the webview serves the extension's files from. */
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  /** Handed to the page's script as data, never as code. */
  bootstrap: Record<string, unknown>;
  /** The lesson, already rendered to safe HTML by the lessons package at build time. */
  lessonHtml: string;
  title: string;
}

/**
 * The content security policy of the lesson panel. Nothing remote is allowed: scripts only by
 * nonce, plus 'wasm-unsafe-eval' because PGlite compiles PostgreSQL's WebAssembly; fetches
 * (PGlite's .wasm, its data files, the prepared database) only from the extension's own files.
 */
export function lessonContentSecurityPolicy(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}' 'wasm-unsafe-eval'`,
    `style-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `connect-src ${cspSource}`,
  ].join('; ');
}

/**
 * The panel's page. The lesson's text is in the page itself, so it is readable at once, before
 * (and even without) the script and the database.
 */
export function lessonPageHtml(input: LessonPageInput): string {
  return `${pageHead(input)}
<body>
<div id="database-status" class="database-status" role="status" aria-live="polite">Starting PostgreSQL…</div>
<main id="lesson" class="lesson">
${input.lessonHtml}
</main>
<script type="application/json" id="bootstrap">${escapeJsonForScript(input.bootstrap)}</script>
<script nonce="${escapeAttribute(input.nonce)}" type="module" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>`;
}

/** A rule's page in the panel: text only, no script. */
export function rulePageHtml(
  input: Pick<LessonPageInput, 'cspSource' | 'nonce' | 'styleUri' | 'title'> & { ruleHtml: string },
): string {
  return `${pageHead(input)}
<body>
<main class="lesson">
${input.ruleHtml}
</main>
</body>
</html>`;
}

function pageHead(input: Pick<LessonPageInput, 'cspSource' | 'nonce' | 'styleUri' | 'title'>): string {
  const csp = lessonContentSecurityPolicy(input.cspSource, input.nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttribute(input.styleUri)}">
<title>${escapeText(input.title)}</title>
</head>`;
}

export function createNonce(random: (size: number) => Uint8Array): string {
  return Buffer.from(random(18)).toString('base64url');
}

export function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/** JSON inside <script> must not be able to close the element or open a comment. */
function escapeJsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}
