import { remembered } from '../syntax/remembered.js';
import { columnName, naming, words } from './names.js';

/**
 * What names say about stores and keys: a table or a collection that records handled deliveries,
 * one that stores the deliveries themselves, a cache, and a key that names a place or a
 * credential rather than an operation.
 */

// Locks and leases are about the delivery too: they keep two workers off the same message at once.
const claimTable =
  /(^|_)(inbox|processed|handled|consumed|received|seen|dedup|dedupe|deduplication|idempotency|idempotent|claims?|locks?|mutex|lease|leases|inflight|processing)(_|$)|message_log|messages_log/;

/**
 * A lock named for the refresh or the fetch it spaces out (`blur-royalties-refresh-lock`,
 * `try-get-currency-details-lock`) keeps that work to one run per while, whoever asks for it: a
 * rate limit, not a delivery's claim.
 */
const rateLimitWords = new Set([
  'refresh',
  'fetch',
  'get',
  'poll',
  'sync',
  'reload',
  'throttle',
  'cooldown',
  'debounce',
]);

/** A key or a lock named for the refresh or the fetch it spaces out: a rate limit. */
export const namesRateLimit: (name: string) => boolean = remembered((name) =>
  words(name).some((word) => rateLimitWords.has(word)),
);

/** Tables (or models, or key prefixes) that record which deliveries were handled or are being handled. */
export const soundsLikeClaimStore: (name: string) => boolean = remembered((name) => {
  const joined = columnName(name);
  return claimTable.test(joined) && (handledRecord.test(joined) || !namesRateLimit(name));
});

/** What a `…Key` may name besides an operation's key: where something is stored, or a credential. */
const placeOrCredentialWords = new Set([
  'storage',
  'object',
  's3',
  'blob',
  'bucket',
  'file',
  'path',
  'cache',
  'upload',
  'image',
  'avatar',
  'media',
  'asset',
  'attachment',
  'thumbnail',
  'snapshot',
  'api',
  'public',
  'private',
  'secret',
  'encryption',
  'signing',
  'access',
  'license',
  'licence',
  'ssh',
  'sort',
  'partition',
  'primary',
  'foreign',
  'translation',
  'i18n',
]);

/** A key that names a place or a credential (`storageKey`, `s3Key`, `apiKey`), not an operation. */
export const namesPlaceOrCredentialKey: (name: string) => boolean = remembered((name) => {
  const parts = words(name);
  return parts[parts.length - 1] === 'key' && parts.slice(0, -1).some((word) => placeOrCredentialWords.has(word));
});

const cacheWords = new Set(['cache', 'cached', 'caches', 'memo', 'memoized', 'memoised']);

/** A collection named as a cache of what was loaded or computed (`resourceCached`, `memo`), not a record of handled work. */
export const namesCache: (name: string) => boolean = remembered((name) =>
  words(name).some((word) => cacheWords.has(word)),
);

const passingStateWords = new Set([
  'disconnected',
  'connected',
  'offline',
  'online',
  'down',
  'unreachable',
  'unhealthy',
  'degraded',
  'failing',
  'paused',
  'stalled',
]);

const recencyWords = new Set([
  'last',
  'latest',
  'recent',
  'recently',
  'throttle',
  'throttled',
  'cooldown',
  'cooldowns',
]);

/** A collection named for when something last happened (`lastMentionForRoom`, `recentAlerts`) or for spacing it out (`cooldowns`). */
export const namesRecency: (name: string) => boolean = remembered((name) =>
  words(name).some((word) => recencyWords.has(word)),
);

const personWords = new Set([
  'user',
  'username',
  'member',
  'author',
  'sender',
  'recipient',
  'customer',
  'player',
  'viewer',
  'chatter',
  'follower',
  'subscriber',
]);

/** A collection named for the people it holds (`alreadyCheckedUsernames`, `greetedMembers`), not for what was handled. */
export const namesPeople: (name: string) => boolean = naming(personWords);

/** A collection named for a state that comes and goes (`disconnected`, `offline`): what holds now, not what was done. */
export const namesPassingState: (name: string) => boolean = remembered((name) =>
  words(name).some((word) => passingStateWords.has(word)),
);

// Only what records handled work: a lock, a lease or an in-flight set keeps two runs apart at once, which memory may do.
const handledRecord =
  /(^|_)(inbox|processed|handled|consumed|seen|dedup|dedupe|deduplication|idempotency|replay|replayed|delivered)(_|$)/;

/** A collection named as the record of deliveries already handled (`processedEvents`, `seenMessageIds`). */
export const namesHandledRecord: (name: string) => boolean = remembered((name) => handledRecord.test(columnName(name)));

const deliveryRecordTable =
  /^(inbound_|incoming_|received_|raw_)?(message|msg|job|event|delivery|deliverie|envelope)s?$|^(inbound|incoming|received)_e?mails?$|_(event|webhook|webhook_event|webhook_deliverie|webhook_delivery)s?$|(^|_)ingress$/;

/**
 * Tables that store the deliveries themselves (`messages`, `jobs`, `events`, a provider's or a
 * domain's `stripe_events`, `payment_event`, `paypal_webhook_events`, the mail received in
 * `inbound_emails` or `inbound_email_ingress`): keyed by the message's own id, as they should be.
 * Storing a message is not an effect of handling it.
 */
export const storesDeliveries: (name: string) => boolean = remembered((name) =>
  deliveryRecordTable.test(columnName(name)),
);
