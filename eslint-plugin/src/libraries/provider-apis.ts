import type { ProviderAdapter } from '../analysis/index.js';

/**
 * Providers whose API calls move money or send something to a person, and the field each takes
 * as its idempotency key: a repeat of the call with the same key is answered with the first
 * result instead of a second charge, payout or message. Some take none (an SMS, an email through
 * most mail APIs, a push): a repeat of those is settled only by the caller's own record.
 */
export const providerApis: ProviderAdapter = {
  kind: 'providers',
  name: 'provider-apis',
  providers: [
    {
      label: 'Stripe',
      modules: ['stripe'],
      receiver: /stripe/i,
      // Request options, the argument after the parameters: `{ idempotencyKey }`.
      key: { option: 'idempotencyKey' },
      calls: [
        { path: 'charges.create', effect: 'charge' },
        // A PaymentIntent moves money when it is confirmed as it is created.
        { path: 'paymentIntents.create', effect: 'charge', onlyWith: 'confirm' },
        { path: 'paymentIntents.confirm', effect: 'charge' },
        { path: 'paymentIntents.capture', effect: 'charge' },
        { path: 'invoices.pay', effect: 'charge' },
        { path: 'invoiceItems.create', effect: 'charge' },
        { path: 'refunds.create', effect: 'refund' },
        { path: 'transfers.create', effect: 'transfer' },
        { path: 'payouts.create', effect: 'payout' },
        { path: 'topups.create', effect: 'charge' },
        { path: 'customers.createBalanceTransaction', effect: 'ledger' },
        { path: 'subscriptionItems.createUsageRecord', effect: 'usage' },
        // Meter events are deduplicated by their `identifier`.
        { path: 'billing.meterEvents.create', effect: 'usage', key: { field: 'identifier' } },
      ],
      keyFields: [
        { name: 'identifier', besides: ['event_name'], with: ['payload'], label: "Stripe's meter event identifier" },
      ],
    },
    {
      label: 'PayPal',
      modules: ['paypal-rest-sdk', '@paypal/payouts-sdk', '@paypal/checkout-server-sdk', '@paypal/paypal-server-sdk'],
      receiver: /paypal/i,
      key: { field: 'sender_batch_header.sender_batch_id' },
      calls: [{ path: 'payout.create', effect: 'payout' }],
      keyFields: [
        // A payout batch: PayPal refuses a second batch with a sender_batch_id it has seen.
        { name: 'sender_batch_id', inside: 'sender_batch_header', label: "PayPal's payout batch key" },
        { name: 'PayPal-Request-Id', label: "PayPal's request key" },
      ],
    },
    {
      label: 'Wise',
      modules: [],
      receiver: /\b(wise|transferwise)\b/i,
      calls: [],
      // A transfer: Wise answers a repeated customerTransactionId with the transfer it made first.
      keyFields: [
        {
          name: 'customerTransactionId',
          besides: ['targetAccount', 'quoteUuid', 'quote'],
          label: "Wise's transfer key",
        },
      ],
    },
    {
      label: 'the Meta Conversions API',
      modules: ['facebook-nodejs-business-sdk'],
      receiver: /conversion|capi|pixel|facebook|meta/i,
      calls: [],
      // A server event: Meta drops a second event with the same event_name and event_id.
      keyFields: [
        {
          name: 'event_id',
          besides: ['event_name'],
          with: ['event_time', 'user_data', 'action_source'],
          label: "Meta's event deduplication key",
        },
      ],
    },
    {
      label: 'Adyen',
      modules: ['@adyen/api-library'],
      receiver: /adyen|checkout|PaymentsApi|ModificationsApi|Payout/,
      key: { option: 'idempotencyKey' },
      calls: [
        { path: 'PaymentsApi.payments', effect: 'charge' },
        { path: 'ModificationsApi.captureAuthorisedPayment', effect: 'charge' },
        { path: 'ModificationsApi.refundCapturedPayment', effect: 'refund' },
        { path: 'InstantPayoutsApi.payout', effect: 'payout' },
      ],
    },
    {
      label: 'Checkout.com',
      modules: ['checkout-sdk-node'],
      receiver: /checkout|cko/i,
      calls: [],
      keyFields: [{ name: 'Cko-Idempotency-Key', label: "Checkout.com's idempotency key" }],
    },
    {
      label: 'Square',
      modules: ['square'],
      receiver: /square|paymentsApi|refundsApi/i,
      key: { field: 'idempotencyKey' },
      calls: [
        { path: 'paymentsApi.createPayment', effect: 'charge' },
        { path: 'payments.create', effect: 'charge' },
        { path: 'refundsApi.refundPayment', effect: 'refund' },
        { path: 'refunds.refundPayment', effect: 'refund' },
      ],
    },
    {
      label: 'Twilio',
      modules: ['twilio'],
      receiver: /twilio/i,
      calls: [{ path: 'messages.create', effect: 'sms' }],
    },
    {
      label: 'SendGrid',
      modules: ['@sendgrid/mail'],
      receiver: /sendgrid|sgMail/i,
      calls: [
        { path: 'send', effect: 'email' },
        { path: 'sendMultiple', effect: 'email' },
      ],
    },
    {
      label: 'Resend',
      modules: ['resend'],
      receiver: /resend/i,
      key: { option: 'idempotencyKey' },
      calls: [
        { path: 'emails.send', effect: 'email' },
        { path: 'emails.create', effect: 'email' },
        { path: 'batch.send', effect: 'email' },
      ],
    },
    {
      label: 'Postmark',
      modules: ['postmark'],
      receiver: /postmark/i,
      calls: [
        { path: 'sendEmail', effect: 'email' },
        { path: 'sendEmailWithTemplate', effect: 'email' },
        { path: 'sendEmailBatch', effect: 'email' },
      ],
    },
    {
      label: 'Mailgun',
      modules: ['mailgun.js', 'mailgun-js'],
      receiver: /mailgun|\bmg\b/i,
      calls: [{ path: 'messages.create', effect: 'email' }],
    },
    {
      label: 'Nodemailer',
      modules: ['nodemailer'],
      receiver: /transport|mailer|smtp/i,
      calls: [{ path: 'sendMail', effect: 'email' }],
    },
    {
      label: 'Firebase Cloud Messaging',
      modules: ['firebase-admin', 'firebase-admin/messaging'],
      receiver: /messaging/i,
      calls: [
        { path: 'send', effect: 'push' },
        { path: 'sendEach', effect: 'push' },
        { path: 'sendEachForMulticast', effect: 'push' },
        { path: 'sendMulticast', effect: 'push' },
        { path: 'sendAll', effect: 'push' },
        { path: 'sendToDevice', effect: 'push' },
        { path: 'sendToTopic', effect: 'push' },
      ],
    },
    {
      label: 'Expo',
      modules: ['expo-server-sdk'],
      receiver: /expo/i,
      calls: [{ path: 'sendPushNotificationsAsync', effect: 'push' }],
    },
  ],
};
