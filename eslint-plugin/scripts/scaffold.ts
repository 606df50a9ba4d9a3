import { execFileSync } from 'node:child_process';

/** Helpers the scaffolding scripts share. */

export function camelCase(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());
}

/** `text` with `insertion` placed just before the first `marker`; fails loudly when the marker is gone. */
export function insertBefore(text: string, marker: string, insertion: string): string {
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`Cannot find "${marker}": the file changed shape, edit it by hand.`);
  return `${text.slice(0, at)}${insertion}${text.slice(at)}`;
}

export function run(command: string, args: string[]): void {
  execFileSync(command, args, { stdio: 'inherit' });
}
