import { stripVTControlCharacters, styleText } from 'node:util';

import wrapAnsi from 'wrap-ansi';

/** What decides how the CLI writes: whether its output is a terminal, how wide, and the environment. */
export interface OutputTraits {
  readonly isTTY?: boolean;
  readonly columns?: number;
}

type Style = Parameters<typeof styleText>[0];

/**
 * How the CLI writes to its output. Prose is wrapped at words to the terminal's width (or to
 * `COLUMNS` when output is piped and that is set; otherwise not at all), and colour is used only
 * on a terminal, never when `NO_COLOR` is set (https://no-color.org). Code and result lines are
 * never wrapped: they must stay exactly as they run.
 */
export class Terminal {
  readonly colour: boolean;
  readonly width: number | null;

  constructor(output: OutputTraits, environment: NodeJS.ProcessEnv) {
    this.colour = Boolean(output.isTTY) && !environment['NO_COLOR'];
    const fromEnvironment = Number(environment['COLUMNS']);
    this.width =
      output.isTTY && output.columns
        ? output.columns
        : Number.isInteger(fromEnvironment) && fromEnvironment > 0
          ? fromEnvironment
          : null;
  }

  style(style: Style, text: string): string {
    // This class has decided already; Node's own check would look at process.stdout again.
    return this.colour ? styleText(style, text, { validateStream: false }) : text;
  }

  /** Prose wrapped at words to the width, every line starting with `indent`. */
  prose(text: string, indent = ''): string {
    const wrapped = this.width
      ? wrapAnsi(text, Math.max(20, this.width - indent.length), { hard: false, trim: true })
      : text;
    return wrapped.replace(/^(?=.)/gm, indent);
  }

  /** Prose that follows a label on its first line and hangs under it after. */
  labelled(label: string, text: string): string {
    const hang = ' '.repeat(stripVTControlCharacters(label).length);
    return `${label}${this.prose(text, hang).slice(hang.length)}`;
  }
}
