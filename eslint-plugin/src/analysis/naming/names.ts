import { remembered } from '../syntax/remembered.js';

/**
 * What a name says about the value it holds. Names are the fallback: the rules first follow a
 * value to where it comes from (a broker's delivery, a parsed payload, a random generator), and
 * only read its name when the code does not show more.
 */

export type NameMeaning =
  | 'delivery' // identifies a delivery or a broker position: messageId, deliveryTag, offset
  | 'worker' // identifies the worker: workerId, hostname, pid
  | 'amount' // an amount of something: amount, cents, price, total
  | 'currency'
  | 'time'
  | 'scope' // who or what the operation belongs to: accountId, customerId, tenantId
  | 'business' // names a business operation or record: refundId, invoiceId, saleId
  | 'identifier' // a bare `id` or `key`: its owner decides
  | 'other';

/** `effectId` → [effect, id]; `source_message_id` → [source, message, id]; `MessageId` → [message, id]. */
export const words: (name: string) => readonly string[] = remembered(splitWords);

/** A name as a column's words joined by `_`: `refundId`, `refund_id` and `RefundID` meet as `refund_id`. */
export function columnName(name: string): string {
  return words(name).join('_');
}

const singular = (word: string) => (word.endsWith('ss') ? word : word.replace(/s$/, ''));

/** A judge of names: does one of a name's words, or its singular (`payments`, `usernames`), stand among `nouns`? */
export const naming = (nouns: ReadonlySet<string>): ((name: string) => boolean) =>
  remembered((name: string) => words(name).some((word) => nouns.has(word) || nouns.has(singular(word))));

function splitWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

const identifierWords = new Set([
  'id',
  'ids',
  'key',
  'keys',
  'ref',
  'reference',
  'uuid',
  'guid',
  'number',
  'no',
  'num',
  'code',
  'token',
  'handle',
  'tag',
  'sku',
]);
/**
 * Words of an amount that is money: a price, a fee or a balance. A total or a sum alone may count
 * anything (`totalVisits`), and a quantity counts goods (`expectedQty` of a stock count), so they
 * are amounts of the words below, not money.
 */
export const moneyAmountWords: ReadonlySet<string> = new Set([
  'amount',
  'amounts',
  'cents',
  'price',
  'subtotal',
  'fee',
  'fees',
  'cost',
  'balance',
  'money',
  'pennies',
]);
const amountWords = new Set([...moneyAmountWords, 'total', 'sum', 'value', 'qty', 'quantity']);
/**
 * What holds a value of any kind (`settingsValue`, `fieldValue`, a set's `setValue`), or a value
 * that is a text of its own (`tokenValue`, `cookieValue`): its `value` is no amount.
 */
const valueHolders = new Set([
  'token',
  'key',
  'hash',
  'signature',
  'cookie',
  'cell',
  'label',
  'tag',
  'claim',
  'text',
  'string',
  'setting',
  'settings',
  'config',
  'option',
  'param',
  'parameter',
  'field',
  'attribute',
  'attr',
  'property',
  'prop',
  'meta',
  'metadata',
  'header',
  'env',
  'input',
  'form',
  'variable',
  'secret',
  'flag',
  'feature',
  // A store's or a collection's own (`setValue` of a SADD, `cacheValue`), or what a setter takes.
  'set',
  'member',
  'element',
  'cache',
  'store',
]);
const currencyWords = new Set(['currency', 'ccy', 'iso4217']);
const timeWords = new Set([
  'date',
  'time',
  'timestamp',
  'ts',
  'at',
  'day',
  'week',
  'month',
  'year',
  'hour',
  'minute',
  'period',
  'epoch',
  'datetime',
  'today',
]);
const deliveryNouns = new Set([
  'message',
  'msg',
  'delivery',
  'job',
  'receipt',
  'event',
  'request',
  'req',
  'trace',
  'span',
  'correlation',
  'envelope',
  'attempt',
  'attempts',
  'offset',
  'partition',
  'sequence',
  'redelivery',
  'consumer',
]);
/** Words that qualify a delivery noun without changing what it names; adapters add their libraries' names (`kafka`). */
const deliveryModifiers = [
  'source',
  'origin',
  'original',
  'inbound',
  'incoming',
  'raw',
  'broker',
  'queue',
  'transport',
  'stream',
  'current',
  'this',
  'the',
  'x',
  'made',
  'count',
  'tag',
];
/** Nouns that, alone, name a whole delivery rather than one of its identifiers. */
const deliveryObjectNouns = new Set([
  'message',
  'msg',
  'delivery',
  'job',
  'event',
  'request',
  'req',
  'envelope',
  'receipt',
  'consumer',
  'span',
  'trace',
]);
const workerNouns = new Set([
  'worker',
  'host',
  'hostname',
  'pid',
  'instance',
  'pod',
  'node',
  'thread',
  'process',
  'machine',
  'container',
]);
const scopeNouns = new Set([
  'account',
  'acct',
  'customer',
  'user',
  'merchant',
  'tenant',
  'org',
  'organization',
  'organisation',
  'shop',
  'store',
  'client',
  'member',
  'team',
  'workspace',
  'project',
  'course',
  'student',
  'wallet',
  'company',
  'seller',
  'buyer',
  'partner',
  'vendor',
  'device',
  'session',
  'owner',
  'household',
  'profile',
  'subscriber',
  'recipient',
  'sender',
  'player',
  'program',
]);

/** Names that on their own mean a delivery identity, whatever holds them. */
const deliveryNames = new Set([
  'deliverytag',
  'receipthandle',
  'attemptsmade',
  'messageid',
  'deliveryid',
  'jobid',
  'redelivered',
  'consumertag',
]);

/**
 * Judges names, with the transport words of the libraries in use (`kafkaOffset` names a
 * delivery because `kafka` is a broker's name). Answers are kept per name.
 */
export class NameJudge {
  private readonly modifiers: ReadonlySet<string>;
  readonly meaning: (name: string) => NameMeaning;

  constructor(transportWords: Iterable<string>) {
    this.modifiers = new Set([...deliveryModifiers, ...transportWords]);
    this.meaning = remembered((name) => this.judge(name));
  }

  private judge(name: string): NameMeaning {
    if (deliveryNames.has(name.toLowerCase())) return 'delivery';
    const parts = words(name);
    if (parts.length === 0) return 'other';
    const last = parts[parts.length - 1];
    const isIdentifier = identifierWords.has(last);
    const nouns = isIdentifier ? parts.slice(0, -1) : parts;

    if (isIdentifier && nouns.length === 0) return 'identifier';
    if (parts.some((word) => currencyWords.has(word))) return 'currency';
    // `value` alone is whatever a token, a header or a field holds, and so is a setting's or an
    // attribute's value; `orderValue` is an amount.
    if (
      !isIdentifier &&
      parts.some(
        (word) =>
          amountWords.has(word) &&
          (word !== 'value' || (parts.length > 1 && !parts.some((part) => valueHolders.has(part)))),
      )
    )
      return 'amount';
    if (!isIdentifier && timeWords.has(last)) return 'time';
    const significant = nouns.filter((word) => !this.modifiers.has(word));
    if (significant.length > 0 && significant.every((word) => workerNouns.has(word))) {
      // `worker`, `process` and `node` alone name objects; `workerId`, `hostname`, `pid` name a worker.
      return isIdentifier || ['hostname', 'pid', 'host'].includes(last) ? 'worker' : 'other';
    }
    if (significant.length > 0 && significant.every((word) => deliveryNouns.has(word))) {
      // `message` and `job` alone name the delivery object, not its identity.
      return parts.length === 1 && deliveryObjectNouns.has(last) ? 'other' : 'delivery';
    }
    if (isIdentifier) {
      return nouns.every((word) => scopeNouns.has(word)) ? 'scope' : 'business';
    }
    return 'other';
  }

  /**
   * What `owner.name` says: a bare `id` takes its meaning from its owner (`refund.id` names a
   * refund, `job.id` a delivery, `account.id` a scope), anything else from its own name.
   */
  memberMeaning(ownerName: string | undefined, name: string): NameMeaning {
    const own = this.meaning(name);
    if (own !== 'identifier' || !ownerName) return own;
    const owner = words(ownerName);
    const noun = owner[owner.length - 1];
    if (!noun) return own;
    return this.meaning(`${noun}_id`);
  }
}

/** Who receives (`phone`, `recipientEmail`, `toAddress`): where the operation goes, not which operation it is. */
const recipientWords = new Set([
  'phone',
  'msisdn',
  'mobile',
  'email',
  'iban',
  'address',
  'recipient',
  'receiver',
  'beneficiary',
  'payee',
  'destination',
  'to',
]);
/** What is bought (`productId`, `planId`, `sku`, `network`): a catalogue entry many operations share. */
const catalogueWords = new Set([
  'product',
  'plan',
  'price',
  'sku',
  'item',
  'variant',
  'package',
  'bundle',
  'tier',
  'offer',
  'network',
  'biller',
  'catalog',
  'catalogue',
  'denomination',
]);

/** `data.phoneNumber` → `phoneNumber`, `shopItem.id` → `shopItem_id`: the name a value is read by, a bare id with its owner's. */
export function readName(code: string): string {
  const names = code.match(/[A-Za-z_$][\w$]*/g) ?? [];
  const last = names[names.length - 1] ?? '';
  const owner = names[names.length - 2];
  return owner !== undefined && identifierWords.has(last.toLowerCase()) ? `${owner}_${last}` : last;
}

/**
 * Does the name say a recipient or a catalogue entry? Two genuine operations (two top-ups of the
 * same phone, two purchases of the same plan) share it, so it narrows a key without naming one.
 */
export const namesRecipientOrCatalogue: (name: string) => boolean = remembered((name) => {
  const parts = words(name);
  const nouns = parts.length > 1 && identifierWords.has(parts[parts.length - 1]) ? parts.slice(0, -1) : parts;
  return (
    nouns.length > 0 && nouns.length <= 2 && nouns.some((word) => recipientWords.has(word) || catalogueWords.has(word))
  );
});

/** Nouns of a message's own identity: `eventId`, `message_id`, `msgId`. */
const messageNouns = new Set(['event', 'message', 'msg']);

/** Does the name say the identity of the message that holds it (`eventId`, `messageId`), by which its consumers tell a copy? */
export const namesMessageIdentity: (name: string) => boolean = remembered((name) => {
  const parts = words(name);
  return parts.length === 2 && messageNouns.has(parts[0]) && identifierWords.has(parts[1]);
});
