import type {
  ProviderAdapter,
  ProviderCallSpec,
  ProviderEffect,
  ProviderKey,
  ProviderKeyField,
  ProviderSpec,
} from '../analysis/index.js';

/**
 * Providers whose API calls move money, send something to a person or post in a team's tool, and the field each takes
 * as its idempotency key: a repeat of the call with the same key is answered with the first
 * result instead of a second charge, payout or message. Some take none (an SMS, an email through
 * most mail APIs, a push): a repeat of those is settled only by the caller's own record.
 */

type CallOptions = Pick<ProviderCallSpec, 'onlyWith' | 'key' | 'command'>;

/** Calls of one effect: `charge('charges.create', 'invoices.pay')`; options first apply to each. */
const calls =
  (effect: ProviderEffect) =>
  (...paths: readonly [CallOptions | string, ...string[]]): ProviderCallSpec[] =>
    paths.flatMap((path) =>
      typeof path === 'string' ? [{ path, effect, ...(typeof paths[0] === 'object' ? paths[0] : {}) }] : [],
    );

const charge = calls('charge');
const refund = calls('refund');
const transfer = calls('transfer');
const payout = calls('payout');
const ledger = calls('ledger');
const usage = calls('usage');
const email = calls('email');
const sms = calls('sms');
const push = calls('push');
const post = calls('post');

/** One provider: how its client is recognised, its calls, and where it takes its idempotency key. */
function provider(
  label: string,
  client: { modules: readonly string[]; receiver: RegExp; key?: ProviderKey },
  effects: readonly ProviderCallSpec[][],
  keyFields?: readonly ProviderKeyField[],
): ProviderSpec {
  return { label, ...client, calls: effects.flat(), ...(keyFields ? { keyFields } : {}) };
}

const stripe = provider(
  'Stripe',
  // Request options, the argument after the parameters: `{ idempotencyKey }`.
  { modules: ['stripe'], receiver: /stripe/i, key: { option: 'idempotencyKey' } },
  [
    charge('charges.create'),
    // A PaymentIntent moves money when it is confirmed as it is created.
    charge({ onlyWith: 'confirm' }, 'paymentIntents.create'),
    charge('paymentIntents.confirm', 'paymentIntents.capture', 'invoices.pay', 'invoiceItems.create'),
    refund('refunds.create'),
    transfer('transfers.create'),
    payout('payouts.create'),
    charge('topups.create'),
    ledger('customers.createBalanceTransaction'),
    usage('subscriptionItems.createUsageRecord'),
    // Meter events are deduplicated by their `identifier`.
    usage({ key: { field: 'identifier' } }, 'billing.meterEvents.create'),
  ],
  [{ name: 'identifier', besides: ['event_name'], with: ['payload'], label: "Stripe's meter event identifier" }],
);

const paypal = provider(
  'PayPal',
  {
    modules: ['paypal-rest-sdk', '@paypal/payouts-sdk', '@paypal/checkout-server-sdk', '@paypal/paypal-server-sdk'],
    receiver: /paypal/i,
    key: { field: 'sender_batch_header.sender_batch_id' },
  },
  [payout('payout.create')],
  [
    // A payout batch: PayPal refuses a second batch with a sender_batch_id it has seen.
    { name: 'sender_batch_id', inside: 'sender_batch_header', label: "PayPal's payout batch key" },
    { name: 'PayPal-Request-Id', label: "PayPal's request key" },
  ],
);

// A transfer: Wise answers a repeated customerTransactionId with the transfer it made first.
const wise = provider(
  'Wise',
  { modules: [], receiver: /\b(wise|transferwise)\b/i },
  [],
  [
    {
      name: 'customerTransactionId',
      besides: ['targetAccount', 'quoteUuid', 'quote'],
      label: "Wise's transfer key",
    },
  ],
);

// A server event: Meta drops a second event with the same event_name and event_id.
const metaConversions = provider(
  'the Meta Conversions API',
  { modules: ['facebook-nodejs-business-sdk'], receiver: /conversion|capi|pixel|facebook|meta/i },
  [],
  [
    {
      name: 'event_id',
      besides: ['event_name'],
      with: ['event_time', 'user_data', 'action_source'],
      label: "Meta's event deduplication key",
    },
  ],
);

const adyen = provider(
  'Adyen',
  {
    modules: ['@adyen/api-library'],
    receiver: /adyen|checkout|PaymentsApi|ModificationsApi|Payout/,
    key: { option: 'idempotencyKey' },
  },
  [
    charge('PaymentsApi.payments', 'ModificationsApi.captureAuthorisedPayment'),
    refund('ModificationsApi.refundCapturedPayment'),
    payout('InstantPayoutsApi.payout'),
  ],
);

const checkoutCom = provider(
  'Checkout.com',
  { modules: ['checkout-sdk-node'], receiver: /checkout|cko/i },
  [],
  [{ name: 'Cko-Idempotency-Key', label: "Checkout.com's idempotency key" }],
);

const square = provider(
  'Square',
  { modules: ['square'], receiver: /square|paymentsApi|refundsApi/i, key: { field: 'idempotencyKey' } },
  [charge('paymentsApi.createPayment', 'payments.create'), refund('refundsApi.refundPayment', 'refunds.refundPayment')],
);

const twilio = provider('Twilio', { modules: ['twilio'], receiver: /twilio/i }, [sms('messages.create')]);

const sendgrid = provider('SendGrid', { modules: ['@sendgrid/mail'], receiver: /sendgrid|sgMail/i }, [
  email('send', 'sendMultiple'),
]);

const resend = provider('Resend', { modules: ['resend'], receiver: /resend/i, key: { option: 'idempotencyKey' } }, [
  email('emails.send', 'emails.create', 'batch.send'),
]);

const postmark = provider('Postmark', { modules: ['postmark'], receiver: /postmark/i }, [
  email('sendEmail', 'sendEmailWithTemplate', 'sendEmailBatch'),
]);

const mailgun = provider('Mailgun', { modules: ['mailgun.js', 'mailgun-js'], receiver: /mailgun|\bmg\b/i }, [
  email('messages.create'),
]);

const nodemailer = provider('Nodemailer', { modules: ['nodemailer'], receiver: /transport|mailer|smtp/i }, [
  email('sendMail'),
]);

// Amazon SES takes no idempotency key: SDK v3 sends a command object, v2 calls a method of the client.
const ses = provider(
  'Amazon SES',
  {
    modules: ['@aws-sdk/client-ses', '@aws-sdk/client-sesv2', 'aws-sdk'],
    receiver: /(^|\.)(ses|sesv2|ses[A-Z0-9_]\w*|\w*Ses|\w*SES\w*)\.$/,
  },
  [
    ...[
      'SendEmailCommand',
      'SendRawEmailCommand',
      'SendTemplatedEmailCommand',
      'SendBulkTemplatedEmailCommand',
      'SendBulkEmailCommand',
    ].map((command) => email({ command }, 'send')),
    email('sendEmail', 'sendRawEmail', 'sendTemplatedEmail', 'sendBulkTemplatedEmail'),
  ],
);

const firebaseMessaging = provider(
  'Firebase Cloud Messaging',
  { modules: ['firebase-admin', 'firebase-admin/messaging'], receiver: /messaging/i },
  [push('send', 'sendEach', 'sendEachForMulticast', 'sendMulticast', 'sendAll', 'sendToDevice', 'sendToTopic')],
);

const expo = provider('Expo', { modules: ['expo-server-sdk'], receiver: /expo/i }, [
  push('sendPushNotificationsAsync'),
]);

const webPush = provider('Web Push', { modules: ['web-push'], receiver: /push/i }, [push('sendNotification')]);

// Tools a team works in: a repeat leaves a second issue, comment or message that people read.
const github = provider(
  'GitHub',
  {
    modules: ['@octokit/rest', '@octokit/core', '@octokit/app', 'octokit', 'probot', '@actions/github'],
    receiver: /octokit|github/i,
  },
  [
    post(
      'issues.create',
      'issues.createComment',
      'pulls.createReview',
      'pulls.createReviewComment',
      'repos.createCommitComment',
    ),
  ],
);

const slack = provider('Slack', { modules: ['@slack/web-api', '@slack/bolt'], receiver: /slack/i }, [
  post('chat.postMessage'),
]);

const linear = provider('Linear', { modules: ['@linear/sdk'], receiver: /linear/i }, [
  post('createIssue', 'createComment'),
]);

export const providerApis: ProviderAdapter = {
  kind: 'providers',
  name: 'provider-apis',
  providers: [
    stripe,
    paypal,
    wise,
    metaConversions,
    adyen,
    checkoutCom,
    square,
    twilio,
    sendgrid,
    resend,
    postmark,
    mailgun,
    nodemailer,
    ses,
    firebaseMessaging,
    expo,
    webPush,
    github,
    slack,
    linear,
  ],
};
