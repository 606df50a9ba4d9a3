import { remembered } from '../syntax/remembered.js';
import { moneyAmountWords, naming, words } from './names.js';

/**
 * What a name says is at stake when a write is made twice, and where a project keeps the code
 * that handles deliveries.
 */

/**
 * Records whose second copy moves money twice: a payment, a ledger entry, an order, a payout. Not
 * what holds money: a wallet, like an account, is a scope (`names.ts`), and a second one moves
 * none; its transactions and ledger do.
 */
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
  'balance',
  'deposit',
  'withdrawal',
  'escrow',
  'topup',
  'purchase',
  'donation',
  'commission',
  'earning',
  'reward',
]);
/** Does an amount's name say it is money (`amount`, `unitPrice`), not a count (`totalVisits`)? */
export const namesMoneyAmount: (name: string) => boolean = remembered((name) =>
  words(name).some((word) => moneyAmountWords.has(word)),
);

/**
 * Records whose second copy is a second grant, counted one by one (billed, or used up): a seat, a
 * licence, an entitlement. A second membership or permission row for the same pair grants nothing
 * more: the pair has access or not, and it is taken away by the pair.
 */
const countedGrantNouns = new Set(['seat', 'license', 'licence', 'entitlement']);

/**
 * Does a name say it moves money (`payments`, `wallet_transactions`, a `credits` balance)? A duplicate
 * of such a row, or a second addition to such a field, outlasts the request that made it,
 * whoever made it twice.
 */
export const namesMoney: (name: string) => boolean = remembered(
  (name) => namesMoneyNoun(name) && !namesMoneyMeans(name) && !namesHistory(name),
);
const namesMoneyNoun = naming(moneyNouns);

/**
 * What keeps the past states of a record rather than the record (`order_history`,
 * `payment_status_log`): a second entry shows a state twice and moves nothing. A ledger kept so
 * carries an amount, and is judged by it.
 */
const namesHistory = naming(new Set(['history', 'histories', 'log', 'audit', 'timeline']));

/**
 * What says how money may move rather than that it moved: a shop's payment methods, a payment
 * gateway's or provider's settings (`paymentMethods`, `payment_gateway_config`).
 */
const moneyMeansNouns = new Set(['method', 'gateway', 'provider', 'setting', 'config', 'configuration', 'option']);
const namesMoneyMeans = naming(moneyMeansNouns);

/**
 * Does a name say it holds a Lightning invoice (`bolt11`, `paymentRequest`)? It can be paid once:
 * a second payment of it is refused by the network, whatever key the call carries.
 */
export const namesSingleUseBill: (name: string) => boolean = remembered((name) => {
  const parts = words(name);
  return parts.includes('bolt11') || parts.some((word, index) => word === 'payment' && parts[index + 1] === 'request');
});

/**
 * Tables of a catalogue: what is sold, at what price (`products`, `PricingPlan`, `SubscriptionTier`),
 * and the offers on it (`coupons`, `promotions`), not a sale of it or an offer taken up.
 */
const catalogueNouns = new Set([
  'product',
  'plan',
  'tier',
  'price',
  'pricing',
  'sku',
  'variant',
  'catalog',
  'catalogue',
  'coupon',
  'promotion',
]);

/** What takes up an offer or sells an entry (`coupon_redemptions`, `price_sales`): a row of it is no catalogue's. */
const takenUpNouns = new Set(['redemption', 'usage', 'use', 'application', 'claim', 'sale']);
const namesCatalogueNoun = naming(catalogueNouns);
const namesTakenUp = naming(takenUpNouns);

/** Does a table's (or model's) name say its rows are a catalogue's entries? A second one moves no money. */
export const namesCatalogue = (name: string): boolean => namesCatalogueNoun(name) && !namesTakenUp(name);

/** Does a table's (or model's) name say its rows are counted grants (`seats`, `Licenses`)? */
export const namesCountedGrant: (name: string) => boolean = naming(countedGrantNouns);

/** Paid access that runs until a date (`membershipExpiration`, `premiumUntil`, `subscriptionEndsAt`). */
const paidAccessNouns = new Set(['membership', 'subscription', 'premium']);
const accessEndWords = new Set(['expiration', 'expiry', 'expires', 'until', 'end', 'ends']);

/** Does a field name the end of a paid access? Moving it on again grants a second period. */
export const namesPaidAccessEnd: (name: string) => boolean = remembered((name) => {
  const parts = words(name);
  return parts.some((word) => paidAccessNouns.has(word)) && parts.some((word) => accessEndWords.has(word));
});

/** Who a grant is given to: a user, an account, a person. */
const granteeNouns = new Set([
  'user',
  'account',
  'principal',
  'profile',
  'person',
  'customer',
  'subscriber',
  'member',
  'owner',
  'email',
  'identity',
  'subject',
  'actor',
  'uid',
  'login',
]);

/** Does a field name who receives what a row grants (`userId`, `accountId`, `email`)? */
export const namesGrantee: (name: string) => boolean = naming(granteeNouns);

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

/** Folders of a project's data layer: its models, entities, schemas, repositories and types. */
const dataLayerFolders = new Set([
  'model',
  'models',
  'entity',
  'entities',
  'schema',
  'schemas',
  'repository',
  'repositories',
  'dto',
  'dtos',
  'types',
]);

/**
 * The words of a file's path (relative to its project) that say it handles deliveries: a queue's
 * processors, a worker, a webhook's controller; none when it says nothing of the kind. A guess
 * from the project's own layout, for where the registration that would say so is out of sight (a
 * base class the worker calls, a router).
 */
export const deliveryPlaceWordsOf: (path: string) => readonly string[] = remembered((path) => {
  const segments = pathWords(path);
  // The data layer describes data (`models/documentSyncQueue.js` is the queue's table), it handles nothing.
  if (segments.some((parts) => parts.length === 1 && dataLayerFolders.has(parts[0]))) return [];
  return segments.flatMap((parts) => parts.filter((word) => deliveryPlaceWords.has(word)));
});

/** Folders of code run once by an operator: migrations of data, alterations, seeds, scripts. */
export const oneOffFolders: ReadonlySet<string> = new Set([
  'migration',
  'migrations',
  'alteration',
  'alterations',
  'seed',
  'seeds',
  'seeder',
  'seeders',
  'script',
  'scripts',
]);

/**
 * Does a file's path (relative to its project) say it is run once, by hand or once per deploy: a
 * data migration, a seed, a script? Nothing repeats it by itself, and whoever runs it twice sees it.
 */
export const namesOneOffPlace: (path: string) => boolean = remembered((path) =>
  pathWords(path)
    .slice(0, -1)
    .some((parts) => parts.some((word) => oneOffFolders.has(word))),
);

/** The words of each segment of a path, the file's extension left out. */
function pathWords(path: string): readonly (readonly string[])[] {
  return path.split(/[\\/]/).map((segment) => words(segment.replace(/\.[cm]?[jt]sx?$/, '')));
}

/**
 * What the last segment of an endpoint's path says it does when POSTed to: publish or send
 * something (`/media_publish`, `/messages/send`), or make a message, a notification or a movement
 * of money (`/v1/charges`, `/sms`). Such a POST delivers even when its answer is read (the new
 * object's id); one to `/search`, `/graphql` or `/oauth/token` asks.
 */
const deliveringEndpointWords = new Set([
  'publish',
  'send',
  'notify',
  'dispatch',
  'deliver',
  'broadcast',
  'message',
  'sms',
  'mail',
  'email',
  'notification',
  'charge',
  'payment',
  'payout',
  'transfer',
  'refund',
  'order',
  'invoice',
]);

/** Does an endpoint's last path segment (`media_publish`, `charges`) name something delivered? */
export const namesDeliveringEndpoint: (segment: string) => boolean = naming(deliveringEndpointWords);
