import type { ValueAdapter } from '../analysis/index.js';

/**
 * Command-line frameworks for NestJS services: nestjs-command's `@Command({ command })` on a
 * method, nest-commander's `@Command({ name })` on a class whose `run` it calls, and
 * @squareboat/nest-console's `@Command('name')`. Each runs when an operator types it, once; a
 * second run is that operator's own doing, and they see it. Teams re-export the decorator from
 * kits of their own, so its name is the evidence, not an import.
 */
export const cliCommands: ValueAdapter = {
  kind: 'values',
  name: 'cli-commands',
  modules: ['nestjs-command', 'nest-commander', '@squareboat/nest-console'],
  commandDecorators: ['Command'],
};
