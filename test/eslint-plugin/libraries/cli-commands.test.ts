import { describe, expect, it } from 'vitest';

import { probesIn } from '../support/analyse.js';
import { inCommand } from '../../../eslint-plugin/src/analysis/origin/entry-points.js';

/** For each `probe()` call, in the order written: does it run in a command an operator types? */
function commandsAt(code: string): boolean[] {
  return probesIn(code, (probe, analysis) => inCommand(probe, analysis.file));
}

describe('cli-commands adapter', () => {
  it("nestjs-command: a method decorated @Command runs by hand; the class's other methods and a route do not", () => {
    expect(
      commandsAt(`
import { Command, Positional } from 'nestjs-command';
import { Post } from '@nestjs/common';
export class UsersCommand {
  @Command({ command: 'users:import <file>', describe: 'Imports users' })
  async import(@Positional({ name: 'file' }) file: string) { probe(); }
  async helper() { probe(); }
  @Post('users') async create() { probe(); }
}`),
    ).toEqual([true, false, false]);
  });

  it('nest-commander: every method of a class decorated @Command runs by hand, and a kit re-exporting the decorator counts too', () => {
    expect(
      commandsAt(`
import { CommandRunner } from 'nest-commander';
import { Command } from '@acme/nest-kit';
@Command({ name: 'reindex', description: 'Rebuilds the search index' })
export class ReindexCommand extends CommandRunner {
  async run() { probe(); await this.batch(); }
  private async batch() { probe(); }
}
export class Indexer { async run() { probe(); } }`),
    ).toEqual([true, true, false]);
  });
});
