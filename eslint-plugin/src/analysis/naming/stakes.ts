import { remembered } from '../syntax/remembered.js';
import { words } from './names.js';

/**
 * What a name says is at stake when a write is made twice, and where a project keeps the code
 * that handles deliveries.
 */

/** Records whose second copy moves money twice: a payment, a ledger entry, an order, a payout. */
const moneyNouns = new Set([
  'payment',
  'charge',
  'transaction',
  'transfer',
  'payout',
  'refund',
  'invoice',
  'order',
  'credit',
  'ledger',
  'wallet',
  'balance',
  'deposit',
  'withdrawal',
  'topup',
  'purchase',
  'donation',
  'commission',
  'earning',
  'reward',
]);
/** Records whose second copy grants access twice: a membership, a permission, a seat, a licence. */
const accessNouns = new Set([
  'member',
  'membership',
  'permission',
  'grant',
  'access',
  'seat',
  'license',
  'licence',
  'entitlement',
  'enrollment',
  'enrolment',
  'collaborator',
]);

/**
 * Does a table's (or model's) name say its rows move money or grant access (`payments`,
 * `wallet_entries`, `OrganizationMember`)? A duplicate of such a row outlasts the request that
 * made it, whoever made it twice.
 */
export const namesMoneyOrAccess: (name: string) => boolean = remembered((name) =>
  words(name).some((word) => {
    const one = word.endsWith('ss') ? word : word.replace(/s$/, '');
    return moneyNouns.has(word) || moneyNouns.has(one) || accessNouns.has(word) || accessNouns.has(one);
  }),
);

/** Folders and file names a project gives the code that handles deliveries: `queues/`, `workers/`, `stripe.webhook.ts`. */
const deliveryPlaceWords = new Set([
  'queue',
  'queues',
  'job',
  'jobs',
  'worker',
  'workers',
  'consumer',
  'consumers',
  'processor',
  'processors',
  'subscriber',
  'subscribers',
  'webhook',
  'webhooks',
  'cron',
  'crons',
  'scheduler',
  'schedulers',
]);

/**
 * Does a file's path (relative to its project) say it handles deliveries: a queue's processors,
 * a worker, a webhook's controller? A guess from the project's own layout, for where the
 * registration that would say so is out of sight (a base class the worker calls, a router).
 */
export const namesDeliveryPlace: (path: string) => boolean = remembered((path) =>
  path
    .split(/[\\/]/)
    .some((segment) => words(segment.replace(/\.[cm]?[jt]sx?$/, '')).some((word) => deliveryPlaceWords.has(word))),
);
