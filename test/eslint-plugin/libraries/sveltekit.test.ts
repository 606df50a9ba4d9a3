import { describe, expect, it } from 'vitest';

import { lintProject } from '../support/project.js';

/** A payout cron of a SvelteKit app: its helper pays through Stripe without a key, imported as `specifier`. */
const project = (specifier: string, marker: Record<string, string>) => ({
  ...marker,
  // The tsconfig SvelteKit generates under .svelte-kit/ is not in a fresh checkout.
  'tsconfig.json': JSON.stringify({ extends: './.svelte-kit/tsconfig.json', compilerOptions: { strict: true } }),
  'src/lib/payment-transfers.ts': `
import Stripe from 'stripe';
const stripe = new Stripe('key');
export async function payGuide(cents: number, account: string) {
  return stripe.transfers.create({ amount: cents, currency: 'eur', destination: account });
}
`,
  'src/routes/api/cron/process-transfers/+server.ts': `
import { and, eq, isNull } from 'drizzle-orm';
import { payGuide } from '${specifier}';
export async function GET() {
  const due = await db.select({ id: bookings.id, cents: bookings.cents, account: bookings.account }).from(bookings).where(and(eq(bookings.status, 'paid'), isNull(bookings.transferId)));
  for (const booking of due) {
    const transfer = await payGuide(booking.cents, booking.account);
    await db.update(bookings).set({ transferId: transfer.id }).where(eq(bookings.id, booking.id));
  }
  return new Response('ok');
}
`,
});

const svelteConfig = { 'svelte.config.js': 'export default { kit: {} };\n' };

describe('sveltekit adapter', () => {
  it('follows a helper imported as $lib/… in a project with a svelte.config file', async () => {
    const { findings } = await lintProject(project('$lib/payment-transfers.js', svelteConfig));
    expect(findings).toEqual([
      'src/routes/api/cron/process-transfers/+server.ts:8 idempotency/no-claim-after-effect/flagSetAfterWork',
    ]);
  });

  it('the same import in the way the helper is written relative to the route is followed alike', async () => {
    const { findings } = await lintProject(project('../../../../lib/payment-transfers.js', {}));
    expect(findings).toEqual([
      'src/routes/api/cron/process-transfers/+server.ts:8 idempotency/no-claim-after-effect/flagSetAfterWork',
    ]);
  });

  it('the near miss: without a svelte.config file, $lib is no alias the project declares, and the helper is out of sight', async () => {
    const { findings } = await lintProject(project('$lib/payment-transfers.js', {}));
    expect(findings).toEqual([]);
  });
});
