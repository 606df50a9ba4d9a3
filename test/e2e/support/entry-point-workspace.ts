import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The e2e workspace (a copy of the plugin's examples) has consumers and job workers; this adds
 * the kind it lacks, a webhook: a Stripe webhook that claims each event in an inbox before it
 * books the payment. The editor test and the worker's listing test read the same workspace.
 */
export const webhookFile = 'billing/src/stripe-webhook.ts';

export const webhookSource = `import Stripe from 'stripe';
import { Pool } from 'pg';

const stripe = new Stripe(process.env.STRIPE_KEY ?? '');
const pool = new Pool();

export async function POST(request: Request): Promise<Response> {
  const event = stripe.webhooks.constructEvent(await request.text(), request.headers.get('stripe-signature'), 'secret');
  const claimed = await pool.query('INSERT INTO inbox (event_id) VALUES ($1) ON CONFLICT (event_id) DO NOTHING', [
    event.id,
  ]);
  if (claimed.rowCount === 0) return new Response('already handled');
  await pool.query('INSERT INTO payments (payment_id, cents) VALUES ($1, $2)', [
    event.data.object.id,
    event.data.object.amount,
  ]);
  return new Response('ok');
}
`;

export function addWebhook(workspace: string): void {
  mkdirSync(path.dirname(path.join(workspace, webhookFile)), { recursive: true });
  writeFileSync(path.join(workspace, webhookFile), webhookSource);
}
