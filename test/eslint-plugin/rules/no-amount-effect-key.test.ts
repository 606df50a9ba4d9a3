import { noAmountEffectKey } from '../../../eslint-plugin/src/rules/no-amount-effect-key.js';
import { ruleTester } from '../rule-tester.js';

ruleTester.run('no-amount-effect-key', noAmountEffectKey, {
  valid: [
    {
      name: 'a price row keyed by an id a nanoid generator made, though the variable is named for the price',
      code: `
        import { customAlphabet } from 'nanoid';
        const guid = customAlphabet('1234567890abcdefghijklmnopqrstuvwxyz', 5);
        export async function createPrice(db, productId, amount) {
          const priceHash = guid();
          await db.insert(prices).values({ id: \`price-\${priceHash}\`, productId, unitAmount: amount });
        }`,
    },
    {
      name: "the near miss of a SADD member built from the amount: a store wrapper's setValue is the member it is given, no amount",
      code: `
        class RedisCache {
          setAndAddToSet(key, value, setKey, setValue, ttl) {
            const transaction = this.client.multi();
            transaction.set(key, value, 'EX', ttl);
            return transaction.sadd(setKey, setValue).exec();
          }
        }`,
    },
    {
      name: "a client's key, or without one a fingerprint that holds the order id: each alternative names the operation",
      code: `
        export async function buy(req, userId) {
          const { clientKey, orderId, amount } = await req.json();
          const idempotencyKey = clientKey || \`dedupe:\${userId}:\${orderId}:\${amount}\`;
          await coreDebit({ userId, amount, idempotencyKey });
        }`,
    },
    {
      name: 'a customer, an order and an amount: the order names the operation',
      code: `
        export async function charge(customerId, orderId, amount) {
          await stripe.charges.create({ amount }, { idempotencyKey: \`\${customerId}:\${orderId}:\${amount}\` });
        }`,
    },
    {
      name: 'the lesson question 4 repair: the sale id',
      code: `
        async function handle(db, message) {
          const effectId = 'sale-' + message.saleId;
          await db.query('INSERT INTO effects(effect_id, amount) VALUES($1, $2) ON CONFLICT DO NOTHING', [effectId, message.cents]);
        }`,
    },
    {
      name: 'an amount beside an invoice id',
      code: `
        new Worker('billing', async (job) => {
          await stripe.charges.create({ amount: job.data.amount }, { idempotencyKey: \`\${job.data.invoiceId}:\${job.data.amount}\` });
        });`,
    },
    {
      name: 'an amount beside a payment id read from an object',
      code: `
        export async function record(db, payment) {
          await db.query('INSERT INTO ledger (entry_key, cents) VALUES ($1, $2) ON CONFLICT (entry_key) DO NOTHING', [\`\${payment.id}-\${payment.cents}\`, payment.cents]);
        }`,
    },
    {
      name: 'the amount in a plain column',
      code: `
        await db.query('INSERT INTO refunds (refund_id, cents) VALUES ($1, $2) ON CONFLICT (refund_id) DO NOTHING', [refund.refundId, refund.cents]);`,
    },
    {
      name: 'a key from a function this file cannot see into',
      code: `
        import * as keys from './keys';
        await stripe.refunds.create({ amount }, { idempotencyKey: await keys.lookup(amount) });`,
    },
    {
      name: 'a key that comes from the delivery is reported by no-delivery-id-effect-key instead',
      code: `
        new Worker('q', async (job) => {
          await stripe.refunds.create({ amount: job.data.cents }, { idempotencyKey: \`\${job.id}-\${job.data.cents}\` });
        });`,
    },
    {
      name: 'an account balance upserted by account is a state assignment',
      code: `
        await db.query('INSERT INTO balances (account_id, cents) VALUES ($1, $2) ON CONFLICT (account_id) DO UPDATE SET cents = excluded.cents', [snapshot.accountId, snapshot.cents]);`,
    },
    {
      name: 'a DynamoDB conditional put keyed by the charge id, the amount beside it',
      code: `
        import { PutCommand } from '@aws-sdk/lib-dynamodb';
        new Worker('charges', async (job) => {
          await ddb.send(new PutCommand({ TableName: 'charges', Item: { chargeId: job.data.chargeId, cents: job.data.cents }, ConditionExpression: 'attribute_not_exists(chargeId)' }));
        });`,
    },
    {
      name: 'a check for an earlier sale by its invoice id, the amount beside it',
      code: `
        export async function importSale(sale) {
          const found = await prisma.commission.findFirst({ where: { invoiceId: sale.invoiceId, amount: sale.amount } });
          if (found) return;
          await prisma.commission.create({ data: { invoiceId: sale.invoiceId, amount: sale.amount } });
        }`,
    },
    {
      name: 'a price looked up by its amount is the row the amount names',
      code: `
        export async function priceFor(workspaceId, amount) {
          const price = await prisma.price.findFirst({ where: { workspaceId, amount } });
          if (!price) await prisma.price.create({ data: { workspaceId, amount } });
        }`,
    },
    {
      name: 'an amount-keyed read that decides nothing',
      code: `
        export async function report(customerId, amount) {
          const same = await prisma.commission.findMany({ where: { customerId, amount } });
          await prisma.auditLog.create({ data: { customerId, count: same.length } });
        }`,
    },
    {
      name: 'a check by amount alone, with nothing that narrows it to an owner or a time',
      code: `
        export async function seed(amount) {
          if (await prisma.tier.findFirst({ where: { amount, kind: 'bonus' } })) return;
          await prisma.tier.create({ data: { amount, kind: 'bonus' } });
        }`,
    },
  ],
  invalid: [
    {
      name: "a client's key or, without one, a fingerprint of who, which number and how much: the fingerprint is judged on its own",
      code: `
        export async function buy(req, userId) {
          const { clientKey, network, phone, amount } = await req.json();
          const idempotencyKey = clientKey || \`dedupe:airtime:\${userId}:\${network}:\${phone}:\${amount}:\${Math.floor(Date.now() / 5000)}\`;
          await coreDebit({ userId, amount, idempotencyKey });
        }`,
      errors: [{ messageId: 'amountKey', line: 5 }],
    },
    {
      name: 'a customer, a catalogue entry and an amount: two purchases of the same plan share it',
      code: `
        export async function subscribe(customerId, planId, amount) {
          await stripe.charges.create({ amount }, { idempotencyKey: \`\${customerId}:\${planId}:\${amount}\` });
        }`,
      errors: [{ messageId: 'amountKey', line: 3 }],
    },
    {
      name: "a catalogue entry read by its owner's bare id (plan.id) narrows as planId does",
      code: `
        export async function subscribe(customer, plan, amount) {
          await stripe.charges.create({ amount }, { idempotencyKey: \`\${customer.id}:\${plan.id}:\${amount}\` });
        }`,
      errors: [{ messageId: 'amountKey', line: 3 }],
    },
    {
      name: 'the lesson question 4 handler: an amount-only key',
      code: `
        async function handle(db, message) {
          const effectId = "amount-" + message.cents;
          await db.query('INSERT INTO effects(effect_id, amount) VALUES($1, $2) ON CONFLICT DO NOTHING', [effectId, message.cents]);
        }`,
      errors: [
        {
          messageId: 'amountKey',
          line: 4,
          data: { key: "the key 'effect_id' of the INSERT into effects", amount: "'message.cents'", others: '' },
        },
      ],
    },
    {
      name: 'an account and an amount as a provider key',
      code: `
        new Worker('payouts', async (job) => {
          const { accountId, amount } = job.data;
          await stripe.transfers.create({ amount }, { idempotencyKey: \`\${accountId}:\${amount}\` });
        });`,
      errors: [
        {
          messageId: 'amountKey',
          line: 4,
          data: { key: "the 'idempotencyKey' option", amount: "'amount'", others: ", narrowed only by 'accountId'" },
        },
      ],
    },
    {
      name: 'amount, currency and day in a Redis NX key',
      code: `
        import Redis from 'ioredis';
        channel.consume('q', async (msg) => {
          const charge = JSON.parse(msg.content.toString());
          const key = \`charge:\${charge.customerId}:\${charge.total}:\${charge.currency}:\${charge.date}\`;
          if (await redis.set(key, '1', 'NX')) await bill(charge);
        });`,
      errors: [{ messageId: 'amountKey', line: 6 }],
    },
    {
      name: 'a Redis NX key built from an amount, its reply ignored: still the key the code means to refuse repeats by',
      code: `
        import Redis from 'ioredis';
        new Worker('payouts', async (job) => {
          const { sellerId, cents } = job.data;
          await redis.set(\`payout:\${sellerId}:\${cents}\`, '1', 'NX');
        });`,
      errors: [{ messageId: 'amountKey', line: 5 }],
    },
    {
      name: 'a Prisma upsert whose unique key is built from an amount',
      code: `
        new Worker('payouts', async (job) => {
          const payoutKey = [job.data.sellerId, job.data.cents].join('-');
          await prisma.payout.upsert({ where: { payoutKey }, create: { payoutKey, cents: job.data.cents }, update: {} });
        });`,
      errors: [{ messageId: 'amountKey', line: 4 }],
    },
    {
      name: 'a key builder fed only an amount and a customer',
      code: `
        new Worker('q', async (job) => {
          await stripe.charges.create({ amount: job.data.cents }, { idempotencyKey: makeIdempotencyKey(job.data.customerId, job.data.cents) });
        });`,
      errors: [{ messageId: 'amountKey', line: 3 }],
    },
    {
      name: 'a knex conflict target on price and user',
      code: `
        export async function buy(order) {
          await knex('purchases').insert({ purchase_key: order.userId + '/' + order.price, price: order.price }).onConflict('purchase_key').ignore();
        }`,
      errors: [{ messageId: 'amountKey', line: 3 }],
    },
    {
      name: 'a DynamoDB conditional put keyed by the customer and the amount',
      code: `
        import { PutCommand } from '@aws-sdk/lib-dynamodb';
        new Worker('charges', async (job) => {
          const { customerId, cents } = job.data;
          await ddb.send(new PutCommand({ TableName: 'charges', Item: { chargeKey: \`\${customerId}#\${cents}\` }, ConditionExpression: 'attribute_not_exists(chargeKey)' }));
        });`,
      errors: [{ messageId: 'amountKey', line: 5 }],
    },
    {
      name: 'a Redis SADD member built from the amount, on an injected client',
      code: `
        new Worker('charges', async (job) => {
          if (await this.store.sadd('charged', \`\${job.data.customerId}:\${job.data.cents}\`)) await bill(job.data);
        });`,
      errors: [{ messageId: 'amountKey', line: 3 }],
    },
    {
      name: 'an import that takes an equal amount for the same customer within an hour as already recorded',
      code: `
        export async function importSale(program, customer, sale) {
          const chargedAt = new Date(sale.chargedAt);
          const tracked = await prisma.commission.findFirst({
            where: {
              programId: program.id,
              customer: { stripeCustomerId: sale.stripeCustomerId },
              createdAt: { gte: new Date(chargedAt.getTime() - 3600000), lte: new Date(chargedAt.getTime() + 3600000) },
              type: 'sale',
              amount: sale.amount,
            },
          });
          if (tracked) return;
          await prisma.commission.create({ data: { programId: program.id, customerId: customer.id, amount: sale.amount, type: 'sale' } });
        }`,
      errors: [
        {
          messageId: 'amountCheck',
          line: 4,
          data: {
            read: 'prisma.commission.findFirst()',
            write: 'prisma.commission.create()',
            amount: "'amount'",
            others: ", narrowed only by 'programId', 'customer' and 'createdAt'",
          },
        },
      ],
    },
    {
      name: 'a SQL check by account and amount before the insert',
      code: `
        export async function record(db, payment) {
          const { rows } = await db.query('SELECT 1 FROM payments WHERE account_id = $1 AND amount_cents = $2', [payment.accountId, payment.cents]);
          if (rows.length > 0) return;
          await db.query('INSERT INTO payments (account_id, amount_cents) VALUES ($1, $2)', [payment.accountId, payment.cents]);
        }`,
      errors: [{ messageId: 'amountCheck', line: 3 }],
    },
  ],
});
