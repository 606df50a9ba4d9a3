// A BullMQ worker that pays sellers out and keeps a Redis marker per payout.
import { Worker } from 'bullmq';
import { PrismaClient } from '@prisma/client';
import Redis from 'ioredis';

const prisma = new PrismaClient();
const redis = new Redis();

new Worker('payouts', async (job) => {
  const { sellerId, cents, currency } = job.data;

  // Two payouts of the same amount to the same seller get the same key: the second is dropped.
  const payoutKey = `${sellerId}:${cents}:${currency}`;
  await prisma.payout.upsert({
    where: { payoutKey }, // flagged: no-amount-effect-key
    create: { payoutKey, sellerId, cents, currency },
    update: {},
  });

  const marker = `payout-sent:${job.data.payoutId}`;
  if (await redis.get(marker)) return;
  await sendPayout(job.data);
  await redis.set(marker, '1', 'EX', 86400); // flagged: no-claim-after-effect
});

async function sendPayout(payout) {
  await fetch('https://payments.example/payouts', { method: 'POST', body: JSON.stringify(payout) });
}
