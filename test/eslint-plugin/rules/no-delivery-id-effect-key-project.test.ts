import { describe, expect, it } from 'vitest';

import { lintProject } from '../support/project.js';

/**
 * Keys built by the project's own code in other modules (a static method, an injected service,
 * an exported instance, a CommonJS helper) and columns the schema makes unique, linted by the
 * real `eslint` command with the schema in the project.
 */

const schema = `
datasource db {
  provider = "postgresql"
  url      = env("DATABASE_URL")
}
model WalletTransaction {
  id        String @id @default(uuid())
  orderId   String
  amount    Int
  reference String @unique
}
model Payout {
  id             String @id @default(uuid())
  reservationId  String
  amount         Int
  idempotencyKey String @unique
  @@unique([reservationId])
}
model ShopPurchase {
  id                String @id @default(uuid())
  userId            String
  shopItemId        String
  buzzTransactionId String @unique
}
`;

const keys = `
export class KeyService {
  static forRefund(paymentId: string) { return \`refund-\${paymentId}-\${Date.now()}\`; }
  forCharge(orderId: string) { return \`charge-\${orderId}-\${Date.now()}\`; }
  forOrder(orderId: string) { return \`charge-\${orderId}\`; }
}
export const keyService = new KeyService();
`;

const commonJs = `
function payoutKey(payoutId) { return \`payout-\${payoutId}-\${Date.now()}\`; }
function steadyKey(payoutId) { return \`payout-\${payoutId}\`; }
module.exports = { payoutKey, steadyKey };
`;

/** What calls each of the payment methods (a method nothing calls has no effect to repeat). */
const paymentRoutes = `
import { Payments } from './payments';
export async function route(payments: Payments, kind: string, id: string) {
  if (kind === 'refund') return payments.refund(id);
  if (kind === 'charge') return payments.charge(id);
  if (kind === 'again') return payments.chargeAgain(id);
  if (kind === 'steady') return payments.chargeSteady(id);
  if (kind === 'payout') return payments.payout(id);
  return payments.payoutSteady(id);
}
`;

const payments = `
import { KeyService, keyService } from './keys';
const { payoutKey, steadyKey } = require('./payout-keys.cjs');
export class Payments {
  constructor(private keys: KeyService) {}
  async refund(paymentId: string) {
    await stripe.refunds.create({ payment_intent: paymentId }, { idempotencyKey: KeyService.forRefund(paymentId) });
  }
  async charge(orderId: string) {
    await stripe.charges.create({ amount: 1 }, { idempotencyKey: this.keys.forCharge(orderId) });
  }
  async chargeAgain(orderId: string) {
    await stripe.charges.create({ amount: 1 }, { idempotencyKey: keyService.forCharge(orderId) });
  }
  async chargeSteady(orderId: string) {
    await stripe.charges.create({ amount: 1 }, { idempotencyKey: this.keys.forOrder(orderId) });
  }
  async payout(payoutId: string) {
    await stripe.payouts.create({ amount: 1 }, { idempotencyKey: payoutKey(payoutId) });
  }
  async payoutSteady(payoutId: string) {
    await stripe.payouts.create({ amount: 1 }, { idempotencyKey: steadyKey(payoutId) });
  }
}
`;

const wallet = `
import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();
export async function creditMerchant(orderId: string, amount: number) {
  await prisma.walletTransaction.create({ data: { orderId, amount, reference: \`CREDIT_\${Date.now()}_\${orderId}\` } });
}
export async function createPayout(reservationId: string, amount: number) {
  return prisma.payout.create({ data: { reservationId, amount, idempotencyKey: \`payout_\${Date.now()}_\${reservationId}\` } });
}
export async function buy(userId: string, shopItem: { id: string }) {
  return prisma.shopPurchase.create({ data: { userId, shopItemId: shopItem.id, buzzTransactionId: \`purchase-\${userId}-\${shopItem.id}-\${Date.now()}\` } });
}
`;

describe('no-delivery-id-effect-key across a project', () => {
  it('follows keys built by statics, injected services, exported instances and CommonJS helpers, and judges unique columns by the schema', async () => {
    const { findings } = await lintProject({
      'prisma/schema.prisma': schema,
      'src/keys.ts': keys,
      'src/payout-keys.cjs': commonJs,
      'src/payments.ts': payments,
      'src/wallet.ts': wallet,
      'src/routes.ts': paymentRoutes,
    });
    const keyFindings = findings.filter((finding) => finding.includes('no-delivery-id-effect-key'));
    expect(keyFindings).toEqual([
      // The static, the injected service, the exported instance and the CommonJS helper all join an id with the clock.
      'src/payments.ts:10 idempotency/no-delivery-id-effect-key/mixedKey',
      'src/payments.ts:13 idempotency/no-delivery-id-effect-key/mixedKey',
      'src/payments.ts:19 idempotency/no-delivery-id-effect-key/mixedKey',
      'src/payments.ts:7 idempotency/no-delivery-id-effect-key/mixedKey',
      // `reference` is unique in the schema; the payout row is kept to one per reservation by
      // another unique key, so its fresh key is minted once and stored (line 8 is silent); what is
      // bought does not name a purchase, so its unique id joined with the clock is a new row's id
      // (line 11 is silent).
      'src/wallet.ts:5 idempotency/no-delivery-id-effect-key/mixedKey',
    ]);
  });

  it('stays silent about a unique column when a schema file that names its table cannot be read, and only then', async () => {
    const migration =
      'CREATE TABLE wallet_transactions (id text PRIMARY KEY, order_id text NOT NULL, amount integer NOT NULL, reference text NOT NULL UNIQUE);';
    const credit = `
      import { PrismaClient } from '@prisma/client';
      const prisma = new PrismaClient();
      export async function creditMerchant(orderId: string, amount: number) {
        await prisma.walletTransaction.create({ data: { orderId, amount, reference: \`CREDIT_\${Date.now()}_\${orderId}\` } });
      }`;
    const namesTable = await lintProject({
      'migrations/001_init.sql': migration,
      'migrations/002_more.sql': 'ALTER TABLE wallet_transactions ADD CONSTRAINT ((( broken;',
      'src/wallet.ts': credit,
    });
    expect(namesTable.stderr).toContain('could not be read');
    expect(namesTable.findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([]);
    const namesAnother = await lintProject({
      'migrations/001_init.sql': migration,
      'migrations/002_more.sql': 'ALTER TABLE audit_log ADD CONSTRAINT ((( broken;',
      'src/wallet.ts': credit,
    });
    expect(namesAnother.stderr).toContain('could not be read');
    expect(namesAnother.findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([
      'src/wallet.ts:5 idempotency/no-delivery-id-effect-key/mixedKey',
    ]);
  });

  it("sees a handler registered through the project's own wrapper of a broker, and an untyped Lambda exported as handler", async () => {
    const insert =
      "await db.query('INSERT INTO charges (charge_key, cents) VALUES (gen_random_uuid(), $1) ON CONFLICT (charge_key) DO NOTHING', [1]);";
    const { findings } = await lintProject({
      'src/rabbit.ts': `
        import amqp from 'amqplib';
        export class Rabbit {
          private channel: any;
          async consume(queue: string, handler: (payload: any) => Promise<void>) {
            await this.channel.consume(queue, async (msg: any) => {
              await handler(JSON.parse(msg.content.toString()));
              this.channel.ack(msg);
            });
          }
          async inTransaction(work: () => Promise<void>) { await work(); }
        }
        export const rabbit = new Rabbit();`,
      'src/consumer.ts': `
        import { rabbit } from './rabbit';
        export async function start() {
          await rabbit.consume('charges', async (payload) => {
            ${insert}
          });
          await rabbit.inTransaction(async () => {
            ${insert}
          });
        }`,
      'src/lambda.js': `
        exports.handler = async (event) => {
          ${insert}
        };
        exports.report = async (event) => {
          ${insert}
        };
        const handler = async (event) => {
          ${insert}
        };
        module.exports.other = handler;`,
    });
    // The wrapper registers its callback with the broker; a project function that only runs its
    // callback does not. Only the export the platform runs by its name is an entry point.
    expect(findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([
      'src/consumer.ts:5 idempotency/no-delivery-id-effect-key/mintedKey',
      'src/lambda.js:3 idempotency/no-delivery-id-effect-key/mintedKey',
    ]);
  });
});

describe('no-delivery-id-effect-key with type information', () => {
  // A service reached through a factory's result: syntax cannot tell which class the value is,
  // the TypeScript program can.
  const project = {
    'src/keys.ts': `
      export class KeyService {
        forCharge(orderId: string) { return \`charge-\${orderId}-\${Date.now()}\`; }
        forOrder(orderId: string) { return \`charge-\${orderId}\`; }
      }
      export interface Keys { forCharge(orderId: string): string; }
      export function keyService(): KeyService { return new KeyService(); }
      export function someKeys(): Keys { return new KeyService(); }`,
    'src/payments.ts': `
      import { keyService, someKeys } from './keys.js';
      declare const stripe: { charges: { create(body: object, options: object): Promise<void> } };
      const keys = keyService();
      const anyKeys = someKeys();
      export async function charge(orderId: string) {
        await stripe.charges.create({ amount: 1 }, { idempotencyKey: keys.forCharge(orderId) });
      }
      export async function chargeSteady(orderId: string) {
        await stripe.charges.create({ amount: 1 }, { idempotencyKey: keys.forOrder(orderId) });
      }
      export async function chargeThroughInterface(orderId: string) {
        await stripe.charges.create({ amount: 1 }, { idempotencyKey: anyKeys.forCharge(orderId) });
      }`,
  };

  it('follows a call syntax cannot resolve to the method the checker resolves it to, and only to a body', async () => {
    const typed = await lintProject(project, undefined, [], { typed: true });
    // The steady key is silent; an interface's method has no body to read, so what runs is unknown.
    expect(typed.findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([
      'src/payments.ts:7 idempotency/no-delivery-id-effect-key/mixedKey',
    ]);
    const untyped = await lintProject(project);
    expect(untyped.findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([]);
  });
});

describe('no-delivery-id-effect-key and the callers of a helper', () => {
  const helper = `
    declare const stripe: { charges: { create(body: object, options: object): Promise<void> } };
    export async function chargeWithClientKey(req: { headers: Record<string, string> }) {
      const idempotencyKey = req.headers['x-idempotency-key'];
      await stripe.charges.create({ amount: 1 }, { idempotencyKey });
    }`;
  const caller = `
    import { v4 as uuidv4 } from 'uuid';
    import { chargeWithClientKey } from '../services/charge.js';
    export async function run() {
      await chargeWithClientKey({ headers: { 'x-idempotency-key': uuidv4() } });
    }`;

  it('does not take what a test or a script hands a helper for what production code hands it', async () => {
    const tested = await lintProject({ 'src/services/charge.ts': helper, 'src/__tests__/charge.test.ts': caller });
    expect(tested.findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([]);
    // Nor what a script run by hand hands it (a fresh key for each run).
    const scripted = await lintProject({ 'src/services/charge.ts': helper, 'src/scripts/charge-once.ts': caller });
    expect(scripted.findings.filter((finding) => finding.includes('services/charge.ts'))).toEqual([]);
    const called = await lintProject({ 'src/services/charge.ts': helper, 'src/jobs/charge.ts': caller });
    expect(called.findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([
      'src/jobs/charge.ts:5 idempotency/no-delivery-id-effect-key/mintedKey',
      'src/services/charge.ts:5 idempotency/no-delivery-id-effect-key/mintedKey',
    ]);
  });

  it('reads an object a caller in another module writes in that module: its values, and their names', async () => {
    const { findings, messages } = await lintProject({
      'src/refunds.ts': `
import Stripe from 'stripe';
const stripe = new Stripe('key');
export async function refund({ refund }: { refund: { id: string; cents: number } }) {
  await stripe.refunds.create({ amount: refund.cents }, { idempotencyKey: \`refund-\${refund.id}-\${Date.now()}\` });
}
`,
      'src/routes.ts': `
import { refund } from './refunds.js';
export async function handle(input: { refundId: string; cents: number }) {
  await refund({ refund: { id: input.refundId, cents: input.cents } });
}
`,
    });
    expect(findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([
      'src/refunds.ts:5 idempotency/no-delivery-id-effect-key/mixedKey',
    ]);
    expect(messages.find((message) => message.includes('names the operation'))).toContain("('input.refundId')");
  });

  it('reports a fresh value where it is handed to a helper of another module that keys a provider call with it', async () => {
    const project = {
      'src/tax.ts': `
import Stripe from 'stripe';
const stripe = new Stripe('key');
export async function reverseTax({ transactionId, reference }: { transactionId: string; reference: string }) {
  return stripe.tax.transactions.createReversal(
    { original_transaction: transactionId, reference, mode: 'full' },
    { idempotencyKey: \`tax_reversal_\${reference}\` },
  );
}
export async function reverseTaxOnce(transactionId: string) {
  return stripe.tax.transactions.createReversal(
    { original_transaction: transactionId, reference: transactionId, mode: 'full' },
    { idempotencyKey: \`tax_reversal_\${transactionId}_\${Date.now()}\` },
  );
}
export async function recordReversal(db: { insert(row: object): Promise<void> }, reference: string) {
  await db.insert({ id: reference, kind: 'reversal' });
}
`,
      'src/refunds.ts': `
import { recordReversal, reverseTax, reverseTaxOnce } from './tax.js';
export async function refund(db: { insert(row: object): Promise<void> }, payment: { id: string; taxId: string }) {
  await reverseTax({
    transactionId: payment.taxId,
    reference: \`refund_\${payment.id}_\${Date.now()}\`,
  });
  await reverseTax({ transactionId: payment.taxId, reference: \`refund_\${payment.id}\` });
  await reverseTaxOnce(payment.taxId);
  await recordReversal(db, \`reversal_\${Date.now()}\`);
}
`,
    };
    const { findings, messages } = await lintProject(project);
    // Reported where the fresh value is made, and at the key it reaches; the steady reference is
    // silent, a key the helper makes fresh itself is the helper's alone, and a helper that names no
    // idempotency key (a row's own id) keys nothing the caller hands it.
    expect(findings.filter((finding) => finding.includes('no-delivery-id-effect-key'))).toEqual([
      'src/refunds.ts:6 idempotency/no-delivery-id-effect-key/mixedKey',
      'src/tax.ts:13 idempotency/no-delivery-id-effect-key/mixedKey',
      'src/tax.ts:7 idempotency/no-delivery-id-effect-key/mixedKey',
    ]);
    expect(messages.find((message) => message.includes('of reverseTax()'))).toContain(
      "the 'idempotencyKey' option of reverseTax() on line 7 of tax.ts",
    );
  });
});
