import { noCheckThenInsert } from '../../../eslint-plugin/src/rules/no-check-then-insert/index.js';
import { ruleTester } from '../rule-tester.js';

ruleTester.run('no-check-then-insert', noCheckThenInsert, {
  valid: [
    {
      name: 'saving an instance that was read updates it: it is not an insert',
      code: `
        import { Model } from 'sequelize';
        async function run(id) {
          const importModel = await Import.findByPk(id);
          if (importModel.state !== 'created') return;
          importModel.state = 'processing';
          await importModel.save();
        }`,
    },
    {
      name: 'a quota: a count compared with a limit decides nothing about a duplicate',
      code: `
        async function invite(teamId, email) {
          const count = await prisma.invite.count({ where: { teamId } });
          if (count >= MAX_INVITES) throw new Error('too many invites');
          await prisma.invite.create({ data: { teamId, email } });
        }`,
    },
    {
      name: 'the duplicate is recognised by a helper of the catch',
      code: `
        async function claim(id) {
          const seen = await prisma.inbox.findUnique({ where: { id } });
          if (seen) return;
          try { await prisma.inbox.create({ data: { id } }); } catch (error) { if (isDuplicateKeyError(error)) return; throw error; }
        }`,
    },
    {
      name: 'the caller catches the unique violation around the helper that inserts',
      code: `
        async function insertClaim(id) {
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }
        async function handle(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return;
          try {
            await insertClaim(id);
          } catch (error) {
            if (error.code === '23505') return;
            throw error;
          }
        }`,
    },
    {
      name: 'the insert settles duplicates itself with ON CONFLICT',
      code: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return false;
          const result = await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
          return result.rowCount === 1;
        }`,
    },
    {
      name: 'find then update is not an insert race',
      code: `
        async function rename(id, name) {
          const user = await prisma.user.findUnique({ where: { id } });
          if (user) await prisma.user.update({ where: { id }, data: { name } });
        }`,
    },
    {
      name: 'upsert, then read back',
      code: `
        async function ensure(id) {
          await prisma.account.upsert({ where: { id }, create: { id }, update: {} });
          return prisma.account.findUnique({ where: { id } });
        }`,
    },
    {
      name: 'the unique violation is caught as the duplicate case',
      code: `
        async function claim(id) {
          const { rowCount } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rowCount) return;
          try {
            await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
          } catch (error) {
            if (error.code === '23505') return;
            throw error;
          }
        }`,
    },
    {
      name: 'Prisma P2002 handled around the create',
      code: `
        async function claim(id) {
          const seen = await prisma.inbox.findUnique({ where: { id } });
          if (seen) return;
          try { await prisma.inbox.create({ data: { id } }); } catch (e) { if (e.code !== 'P2002') throw e; }
        }`,
    },
    {
      name: 'an advisory lock taken first serialises the workers',
      code: `
        async function claim(client, id) {
          await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [id]);
          const { rows } = await client.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length === 0) await client.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }`,
    },
    {
      name: 'the parent row is locked FOR UPDATE first',
      code: `
        async function addItem(client, orderId, sku) {
          await client.query('SELECT id FROM orders WHERE id = $1 FOR UPDATE', [orderId]);
          const { rows } = await client.query('SELECT 1 FROM order_items WHERE order_id = $1 AND sku = $2', [orderId, sku]);
          if (rows.length === 0) await client.query('INSERT INTO order_items (order_id, sku) VALUES ($1, $2)', [orderId, sku]);
        }`,
    },
    {
      name: 'a serializable Prisma transaction',
      code: `
        await prisma.$transaction(async (tx) => {
          const seen = await tx.inbox.findFirst({ where: { id } });
          if (!seen) await tx.inbox.create({ data: { id } });
        }, { isolationLevel: Prisma.TransactionIsolationLevel.Serializable });`,
    },
    {
      name: 'Redis SET NX',
      code: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          return (await redis.set(key, '1', 'NX')) === 'OK';
        }`,
    },
    {
      name: 'the read is of another table',
      code: `
        async function handle(id) {
          const { rows } = await pool.query('SELECT 1 FROM customers WHERE id = $1', [id]);
          if (rows.length === 0) return;
          await pool.query('INSERT INTO visits (customer_id) VALUES ($1)', [id]);
        }`,
    },
    {
      name: 'the write runs only when the row was found',
      code: `
        async function touch(id) {
          const { rows } = await pool.query('SELECT 1 FROM sessions WHERE id = $1', [id]);
          if (rows.length > 0) await pool.query('INSERT INTO sessions (id) VALUES ($1) ON CONFLICT (id) DO UPDATE SET seen_at = now()', [id]);
        }`,
    },
    {
      name: 'the read result does not decide the write',
      code: `
        async function audit(id) {
          const rows = await pool.query('SELECT * FROM audit WHERE id = $1', [id]);
          console.log(rows);
          await pool.query('INSERT INTO audit (id) VALUES ($1)', [id]);
        }`,
    },
    {
      name: 'TypeORM save of the entity that was found is an update',
      code: `
        async function bump(id) {
          const counter = await this.counters.findOneBy({ id });
          if (!counter) throw new Error('missing');
          counter.value += 1;
          await this.counters.save(counter);
        }`,
    },
    {
      name: 'a Redis lock on another key is taken first',
      code: `
        import Redis from 'ioredis';
        export const handler = async (day) => {
          const lock = await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX');
          if (lock !== 'OK') return;
          if (await redis.get(\`digest:sent:\${day}\`)) return;
          await sendDigest();
          await redis.set(\`digest:sent:\${day}\`, '1', 'EX', 86400);
        };`,
    },
    {
      name: 'a data layer that names its tables: a read of one table and a write of another',
      code: `
        class Sync {
          async run(chainId, txHash) {
            const existing = await this.models.findFirst({ table: 'sync_record', where: { chainId } });
            if (!existing) await this.models.create({ table: 'chain_transaction', data: { chainId, txHash } });
          }
        }`,
    },
    {
      name: 'an ignored claim after a check, with no other work, is only redundant',
      code: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length) return;
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
    },
    {
      name: 'Drizzle insert with onConflictDoNothing',
      code: `
        const [seen] = await db.select().from(inbox).where(eq(inbox.id, id));
        if (!seen) await db.insert(inbox).values({ id }).onConflictDoNothing();`,
    },
  ],
  invalid: [
    {
      name: 'a Prisma call is quoted as written, not capitalised',
      code: `
        async function claim(id) {
          const seen = await prisma.inbox.findFirst({ where: { id } });
          if (!seen) await prisma.inbox.create({ data: { id } });
        }`,
      errors: [{ messageId: 'checkThenInsert', data: { write: 'prisma.inbox.create()', read: 'prisma.inbox.findFirst()', line: '3', remedy: 'an upsert, or create and treat error P2002 as the duplicate' } }],
    },
    {
      name: 'SELECT then INSERT after an early return',
      code: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return;
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          data: {
            write: 'The INSERT into inbox',
            read: 'a SELECT on inbox',
            line: '3',
            remedy: 'INSERT … ON CONFLICT DO NOTHING and check the row count',
          },
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function claim(id) {
          const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [id]);
          if (rows.length > 0) return;
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'count(*) then INSERT … RETURNING in the zero branch',
      code: `
        async function record(client, refundId, cents) {
          const result = await client.query('SELECT count(*) AS n FROM refunds WHERE refund_id = $1', [refundId]);
          const exists = Number(result.rows[0].n) > 0;
          if (!exists) {
            await client.query(\`INSERT INTO refunds (refund_id, cents) VALUES ($1, $2) RETURNING refund_id\`, [refundId, cents]);
          }
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function record(client, refundId, cents) {
          const result = await client.query('SELECT count(*) AS n FROM refunds WHERE refund_id = $1', [refundId]);
          const exists = Number(result.rows[0].n) > 0;
          if (!exists) {
            await client.query(\`INSERT INTO refunds (refund_id, cents) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING refund_id\`, [refundId, cents]);
          }
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'an EXISTS check in a helper function',
      code: `
        async function seen(id) {
          const { rows } = await pool.query('SELECT EXISTS (SELECT 1 FROM inbox WHERE message_id = $1) AS found', [id]);
          return rows[0].found;
        }
        channel.consume('q', async (msg) => {
          if (await seen(msg.properties.messageId)) return channel.ack(msg);
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [msg.properties.messageId]);
        });`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 8,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function seen(id) {
          const { rows } = await pool.query('SELECT EXISTS (SELECT 1 FROM inbox WHERE message_id = $1) AS found', [id]);
          return rows[0].found;
        }
        channel.consume('q', async (msg) => {
          if (await seen(msg.properties.messageId)) return channel.ack(msg);
          await pool.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [msg.properties.messageId]);
        });`,
            },
          ],
        },
      ],
    },
    {
      name: 'Prisma findUnique then create in the else branch',
      code: `
        async function claim(id) {
          const existing = await prisma.processedMessage.findUnique({ where: { id } });
          if (existing) {
            return false;
          } else {
            await prisma.processedMessage.create({ data: { id } });
            return true;
          }
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 7, suggestions: [] }],
    },
    {
      name: 'TypeORM findOneBy then save of a new entity',
      code: `
        async function claim(id) {
          const found = await this.inboxRepository.findOneBy({ messageId: id });
          if (!found) await this.inboxRepository.save({ messageId: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'Sequelize findOne then create',
      code: `
        async function claim(id) {
          if (await Inbox.findOne({ where: { messageId: id } })) return;
          await Inbox.create({ messageId: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'Mongoose exists then create',
      code: `
        async function claim(id) {
          const exists = await Processed.exists({ _id: id });
          return exists || Processed.create({ _id: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 4 }],
    },
    {
      name: 'knex first then insert',
      code: `
        async function claim(id) {
          const row = await knex('inbox').where({ message_id: id }).first();
          if (row) return;
          await knex('inbox').insert({ message_id: id });
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 5 }],
    },
    {
      name: 'Drizzle select then insert, with a suggestion',
      code: `
        const [seen] = await db.select().from(inbox).where(eq(inbox.id, id));
        if (!seen) await db.insert(inbox).values({ id });`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 3,
          suggestions: [
            {
              messageId: 'addOnConflictDoNothing',
              output: `
        const [seen] = await db.select().from(inbox).where(eq(inbox.id, id));
        if (!seen) await db.insert(inbox).values({ id }).onConflictDoNothing();`,
            },
          ],
        },
      ],
    },
    {
      name: 'Kysely selectFrom then insertInto',
      code: `
        const row = await db.selectFrom('inbox').select('id').where('id', '=', id).executeTakeFirst();
        if (row === undefined) await db.insertInto('inbox').values({ id }).execute();`,
      errors: [{ messageId: 'checkThenInsert', line: 3 }],
    },
    {
      name: 'Redis GET then SET, with a suggestion',
      code: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          await redis.set(key, '1');
          return true;
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 5,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import Redis from 'ioredis';
        async function once(key) {
          if (await redis.get(key)) return false;
          await redis.set(key, '1', 'NX');
          return true;
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'node-redis takes NX as an option',
      code: `
        import { createClient } from 'redis';
        async function once(key) {
          const seen = await client.exists(key);
          if (seen === 1) return;
          await client.set(key, '1', { EX: 60 });
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 6,
          suggestions: [
            {
              messageId: 'addNx',
              output: `
        import { createClient } from 'redis';
        async function once(key) {
          const seen = await client.exists(key);
          if (seen === 1) return;
          await client.set(key, '1', { NX: true, EX: 60 });
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'postgres.js tagged templates',
      code: `
        async function claim(id) {
          const [row] = await sql\`SELECT 1 FROM inbox WHERE message_id = \${id}\`;
          if (!row) await sql\`INSERT INTO inbox (message_id) VALUES (\${id})\`;
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 4,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function claim(id) {
          const [row] = await sql\`SELECT 1 FROM inbox WHERE message_id = \${id}\`;
          if (!row) await sql\`INSERT INTO inbox (message_id) VALUES (\${id}) ON CONFLICT DO NOTHING\`;
        }`,
            },
          ],
        },
      ],
    },
    {
      name: 'check, then the payment, then a claim whose result nobody reads',
      code: `
        channel.consume('reserved', async (msg) => {
          const event = JSON.parse(msg.content.toString());
          const seen = await pool.query('SELECT 1 FROM processed_events WHERE event_key = $1', [event.key]);
          if (seen.rows.length > 0) return;
          await pool.query('INSERT INTO payments (order_id, amount) VALUES ($1, $2)', [event.orderId, event.amount]);
          await pool.query('INSERT INTO processed_events (event_key) VALUES ($1) ON CONFLICT (event_key) DO NOTHING', [event.key]);
        });`,
      errors: [{ messageId: 'resultIgnored', line: 7, data: { write: 'The INSERT into processed_events', read: 'a SELECT on processed_events', line: '4' } }],
    },
    {
      name: 'a Redis lock taken after the check comes too late',
      code: `
        import Redis from 'ioredis';
        export const handler = async (day) => {
          if (await redis.get(\`digest:sent:\${day}\`)) return;
          const lock = await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX');
          if (lock !== 'OK') return;
          await sendDigest();
          await redis.set(\`digest:sent:\${day}\`, '1', 'EX', 86400);
        };`,
      errors: [{ messageId: 'checkThenInsert', line: 8, suggestions: [{ messageId: 'addNx', output: `
        import Redis from 'ioredis';
        export const handler = async (day) => {
          if (await redis.get(\`digest:sent:\${day}\`)) return;
          const lock = await redis.set(\`digest:lock:\${day}\`, '1', 'EX', 600, 'NX');
          if (lock !== 'OK') return;
          await sendDigest();
          await redis.set(\`digest:sent:\${day}\`, '1', 'EX', 86400, 'NX');
        };` }] }],
    },
    {
      name: 'knex held by a class',
      code: `
        class Ledger {
          constructor(knex) { this.knex = knex; }
          async record(providerTxId, amount) {
            const existing = await this.knex('transactions').where({ providerTxId }).first();
            if (!existing) await this.knex('transactions').insert({ providerTxId, amount });
          }
        }`,
      errors: [{ messageId: 'checkThenInsert', line: 6 }],
    },
    {
      name: 'a SELECT … FOR UPDATE on the same table locks no row that does not exist yet',
      code: `
        async function claim(client, id) {
          const { rows } = await client.query('SELECT 1 FROM inbox WHERE message_id = $1 FOR UPDATE', [id]);
          if (rows.length === 0) await client.query('INSERT INTO inbox (message_id) VALUES ($1)', [id]);
        }`,
      errors: [
        {
          messageId: 'checkThenInsert',
          line: 4,
          suggestions: [
            {
              messageId: 'addOnConflict',
              output: `
        async function claim(client, id) {
          const { rows } = await client.query('SELECT 1 FROM inbox WHERE message_id = $1 FOR UPDATE', [id]);
          if (rows.length === 0) await client.query('INSERT INTO inbox (message_id) VALUES ($1) ON CONFLICT DO NOTHING', [id]);
        }`,
            },
          ],
        },
      ],
    },
  ],
});
