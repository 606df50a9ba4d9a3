import { describe, expect, it } from 'vitest';

import { nodePgMigrate } from '../../../eslint-plugin/src/libraries/node-pg-migrate.js';
import { operationsIn } from '../support/analyse.js';
import { lintProject } from '../support/project.js';

describe('node-pg-migrate adapter', () => {
  it('sends no query a rule judges: its calls are migrations, not reads or writes', () => {
    expect(
      operationsIn(
        `export const up = (pgm) => { pgm.sql('INSERT INTO plans (code) VALUES (1)'); pgm.createTable('inbox', {}); };`,
      ).filter((operation) => operation.library === 'node-pg-migrate'),
    ).toEqual([]);
    expect(nodePgMigrate.ddlCalls).toEqual([{ method: 'sql', receiver: /^pgm$/ }]);
  });

  it("reads the keys of pgm.sql, and leaves a table pgm's own calls change unsure", async () => {
    const claim = `
export async function claim(pool, id) {
  await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT (message_id) DO NOTHING', [id]);
}
`;
    const lint = async (more: string) =>
      (
        await lintProject({
          'migrations/1_init.js': `exports.up = (pgm) => {\n  pgm.sql('CREATE TABLE inbox (id serial PRIMARY KEY, message_id text NOT NULL)');\n  ${more}\n};\n`,
          'src/claim.js': claim,
        })
      ).findings;
    expect(await lint('')).toEqual(['src/claim.js:3 idempotency/no-claim-without-unique-key/noMatchingKey']);
    expect(await lint("pgm.sql('ALTER TABLE inbox ADD CONSTRAINT inbox_message UNIQUE (message_id)');")).toEqual([]);
    expect(await lint("pgm.addConstraint('inbox', 'inbox_message', { unique: ['message_id'] });")).toEqual([]);
    // A call that changes another table leaves this one as the SQL says.
    expect(await lint("pgm.addConstraint('visits', 'visits_day', { unique: ['day'] });")).toEqual([
      'src/claim.js:3 idempotency/no-claim-without-unique-key/noMatchingKey',
    ]);
  });
});
