// An SQS poller that emails receipts and records each one in PostgreSQL.
const { SQSClient, ReceiveMessageCommand, DeleteMessageCommand } = require('@aws-sdk/client-sqs');
const { Pool } = require('pg');

const sqs = new SQSClient({});
const pool = new Pool();
const QueueUrl = process.env.RECEIPTS_QUEUE_URL;

async function recordReceipt(receiptKey, orderId, cents) {
  await pool.query(
    'INSERT INTO receipts (receipt_key, order_id, cents) VALUES ($1, $2, $3) ON CONFLICT (receipt_key) DO NOTHING',
    [receiptKey, orderId, cents], // flagged: no-delivery-id-effect-key
  );
}

async function poll() {
  const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, MaxNumberOfMessages: 10 }));
  for (const message of Messages) {
    const order = JSON.parse(message.Body);
    // The receipt handle changes on every receive, so a redelivery records a second receipt.
    await recordReceipt(message.ReceiptHandle, order.orderId, order.cents);
    await sqs.send(new DeleteMessageCommand({ QueueUrl, ReceiptHandle: message.ReceiptHandle }));
  }
}

module.exports = { poll };
