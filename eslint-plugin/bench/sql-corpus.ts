/**
 * A fixed SQL-dense corpus: consumer modules written the ways the rules read, dozens of queries
 * each. Every text is distinct but the `ON CONFLICT` claim, which is the same for each table (as
 * a service's claim is), so the parse of each statement once per text is what is measured.
 * Generated, not random: the same files every run.
 */

const shapes: ((table: string, index: number) => string)[] = [
  (table, index) =>
    `  await pool.query('INSERT INTO ${table} (${table}_id, cents, note) VALUES ($1, $2, $3) ON CONFLICT (${table}_id) DO NOTHING', [payload.${table}Id, payload.cents, 'n${index}']);`,
  (table, index) =>
    `  const { rows: r${index} } = await pool.query('SELECT id, cents FROM ${table} WHERE account_id = $1 AND created_at > now() - interval \\'${index} days\\'', [payload.accountId]);`,
  (table, index) =>
    `  await sql\`UPDATE ${table} SET cents = cents + \${payload.cents} WHERE id = \${payload.${table}Id} AND version = ${index}\`;`,
  (table, index) =>
    `  await client.query({ text: 'INSERT INTO ${table}_log (message_id, seen_at, n) VALUES ($1, now(), ${index})', values: [message.id] });`,
  (table, index) =>
    `  await knex('${table}').insert({ ${table}_id: payload.${table}Id, cents: payload.cents, batch: ${index} }).onConflict('${table}_id').ignore();`,
  (table, index) =>
    `  await prisma.${table}.upsert({ where: { ${table}Id: payload.${table}Id }, create: { ${table}Id: payload.${table}Id, cents: ${index} }, update: {} });`,
  (table, index) =>
    `  await db.query(\`SELECT count(*) FROM ${table} t JOIN accounts a ON a.id = t.account_id WHERE t.kind = '${index}' GROUP BY a.region\`);`,
  (table, index) =>
    `  await stripe.refunds.create({ amount: payload.cents }, { idempotencyKey: \`${table}-\${payload.${table}Id}-${index}\` });`,
];

const tables = ['refund', 'sale', 'payout', 'invoice', 'transfer', 'charge'];

export function sqlDenseCorpus(files = 120, queriesPerFile = 48): { name: string; source: string }[] {
  return Array.from({ length: files }, (_, file) => {
    const lines = Array.from({ length: queriesPerFile }, (_, query) => {
      const index = file * queriesPerFile + query;
      return shapes[index % shapes.length](tables[(file + query) % tables.length], index);
    });
    const source = [
      "import { Worker } from 'bullmq';",
      '',
      `export const worker${file} = new Worker('q${file}', async (job) => {`,
      '  const payload = job.data;',
      '  const message = job;',
      ...lines,
      '});',
      '',
    ].join('\n');
    return { name: `consumer-${file}.js`, source };
  });
}
