// A RabbitMQ consumer that books ledger entries. It remembers handled messages in an inbox table.
const amqp = require('amqplib');
const { Pool } = require('pg');

const pool = new Pool();

async function alreadyHandled(messageId) {
  const { rows } = await pool.query('SELECT 1 FROM inbox WHERE message_id = $1', [messageId]);
  return rows.length > 0;
}

async function start() {
  const connection = await amqp.connect('amqp://localhost');
  const channel = await connection.createChannel();
  await channel.consume('ledger', async (msg) => {
    const entry = JSON.parse(msg.content.toString());
    if (await alreadyHandled(msg.properties.messageId)) {
      channel.ack(msg);
      return;
    }
    // Two workers can both pass the check above before either inserts.
    await pool.query('INSERT INTO inbox (message_id) VALUES ($1)', [msg.properties.messageId]); // flagged: no-check-then-insert
    await pool.query(
      'INSERT INTO ledger_entries (entry_id, account_id, cents) VALUES ($1, $2, $3)',
      [msg.properties.messageId, entry.accountId, entry.cents], // flagged: no-delivery-id-effect-key
    );
    channel.ack(msg);
  });
}

start();
