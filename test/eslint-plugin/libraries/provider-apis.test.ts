import { describe, expect, it } from 'vitest';

import { noDeliveryIdEffectKey } from '../../../eslint-plugin/src/rules/no-delivery-id-effect-key.js';
import { ruleTester } from '../rule-tester.js';
import { providerCallsIn } from '../support/analyse.js';

describe('provider-apis adapter: calls that move money or send', () => {
  it.each([
    [
      'a Stripe refund without request options',
      `import Stripe from 'stripe'; const stripe = new Stripe(key); await stripe.refunds.create({ charge });`,
      ['Stripe refund unkeyed'],
    ],
    [
      'a Stripe refund with its idempotencyKey',
      `await stripe.refunds.create({ charge }, { idempotencyKey: refundId });`,
      ['Stripe refund keyed'],
    ],
    [
      'a client named otherwise, made by the SDK',
      `import Stripe from 'stripe'; const payments = new Stripe(key); await payments.transfers.create({ amount, destination });`,
      ['Stripe transfer unkeyed'],
    ],
    [
      'a PaymentIntent moves money only when confirmed',
      `await stripe.paymentIntents.create({ amount }); await stripe.paymentIntents.create({ amount, confirm: true });`,
      ['Stripe charge unkeyed'],
    ],
    [
      'a meter event keyed by its identifier',
      `await stripe.billing.meterEvents.create({ event_name: 'api_calls', identifier: callId, payload });`,
      ['Stripe usage keyed'],
    ],
    [
      'a PayPal payout keyed by its batch id',
      `PayPal.payout.create({ sender_batch_header: { sender_batch_id: batchId }, items });`,
      ['PayPal payout keyed'],
    ],
    [
      'a Twilio SMS takes no key',
      `import twilio from 'twilio'; const client = twilio(sid, token); await client.messages.create({ to, from, body });`,
      ['Twilio sms no key'],
    ],
    ['a SendGrid email', `import sgMail from '@sendgrid/mail'; await sgMail.send(msg);`, ['SendGrid email no key']],
    [
      'a Resend email with its idempotencyKey',
      `await resend.emails.send({ to, subject, html }, { idempotencyKey: \`welcome/\${userId}\` });`,
      ['Resend email keyed'],
    ],
    [
      'an FCM push',
      `import admin from 'firebase-admin'; await admin.messaging().send(message);`,
      ['Firebase Cloud Messaging push no key'],
    ],
    [
      'an Amazon SES email sent as an SDK v3 command',
      `import { SESClient, SendEmailCommand } from '@aws-sdk/client-ses'; const client = new SESClient({}); await client.send(new SendEmailCommand(params));`,
      ['Amazon SES email no key'],
    ],
    [
      'an SESv2 command held in a constant',
      `import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2'; const command = new SendEmailCommand(input); await mailer.send(command);`,
      ['Amazon SES email no key'],
    ],
    ['an Amazon SES email through SDK v2', `await ses.sendEmail(params).promise();`, ['Amazon SES email no key']],
    [
      'a comment on a pull request through Octokit',
      `import { Octokit } from '@octokit/rest'; const octokit = new Octokit({ auth }); await octokit.rest.issues.createComment({ owner, repo, issue_number, body });`,
      ['GitHub post no key'],
    ],
    ['a Slack message', `await slackClient.chat.postMessage({ channel, text });`, ['Slack post no key']],
    ['a Linear issue', `await linearClient.createIssue({ teamId, title });`, ['Linear post no key']],
    ['near miss: a Slack message edited in place', `await slackClient.chat.update({ channel, ts, text });`, []],
    ['near miss: createIssue of a client that is not Linear', `await tracker.createIssue({ title });`, []],
    [
      'near miss: issues.get through Octokit reads',
      `await octokit.rest.issues.get({ owner, repo, issue_number });`,
      [],
    ],
    [
      'near miss: a SendEmailCommand class of the project',
      `import { SendEmailCommand } from './commands'; await bus.send(new SendEmailCommand(user));`,
      [],
    ],
    ['near miss: sendEmail of a project service', `await this.notifications.sendEmail(user, template);`, []],
    [
      'near miss: messages.create of an LLM client',
      `import Anthropic from '@anthropic-ai/sdk'; const client = new Anthropic(); await client.messages.create({ model, messages });`,
      [],
    ],
    [
      'near miss: a response sent in a file that imports firebase-admin',
      `import admin from 'firebase-admin'; res.send(body);`,
      [],
    ],
    [
      'Resend imported as Deno imports it, from esm.sh or npm:',
      `import { Resend } from 'https://esm.sh/resend@2.0.0'; const resend = new Resend(key); await resend.emails.send(email);`,
      ['Resend email unkeyed'],
    ],
    [
      'a web push',
      `import webpush from 'web-push'; await webpush.sendNotification(subscription, payload);`,
      ['Web Push push no key'],
    ],
    ['near miss: refunds.create of a project service', `await this.refunds.create({ orderId });`, []],
  ])('%s', (_name, code, expected) => {
    expect(providerCallsIn(code)).toEqual(expected);
  });
});

// The key rules judge what fills a provider's own key field, wherever the request body is built.
ruleTester.run('no-delivery-id-effect-key (provider key fields)', noDeliveryIdEffectKey, {
  valid: [
    {
      name: 'PayPal: sender_batch_id from the business operation',
      code: `const body = { sender_batch_header: { sender_batch_id: \`payout-\${expense.id}\` }, items }; await paypal.executePayouts(account, body);`,
    },
    {
      name: 'Wise: customerTransactionId stored with the expense',
      code: `await wise.createTransfer(account, { targetAccount: recipient.id, quoteUuid: quote.id, customerTransactionId: expense.transferKey });`,
    },
    {
      name: 'near miss: an event_id with no event_name beside it is no Meta key',
      code: `import { v4 as uuid } from 'uuid'; await db.audit.create({ data: { event_id: uuid(), actor } });`,
    },
    {
      name: 'near miss: sender_batch_id outside a batch header',
      code: `import { v4 as uuid } from 'uuid'; report.push({ sender_batch_id: uuid() });`,
    },
  ],
  invalid: [
    {
      name: 'PayPal: a fresh sender_batch_id on every call',
      code: `import { v4 as uuid } from 'uuid';
const requestBody = { sender_batch_header: { email_subject: 'Paid', sender_batch_id: uuid() }, items };
await paypal.executePayouts(account, requestBody);`,
      errors: [{ messageId: 'mintedKey', line: 2 }],
    },
    {
      name: 'Wise: a fresh customerTransactionId for each transfer',
      code: `import { v4 as uuid } from 'uuid';
const transferOptions = { targetAccount: recipient.id, quoteUuid: quote.id, customerTransactionId: uuid() };
await transferwise.createTransfer(account, transferOptions);`,
      errors: [{ messageId: 'mintedKey', line: 2 }],
    },
    {
      name: 'Meta: an event_id minted per send cannot deduplicate the browser event',
      code: `import { v4 as uuid } from 'uuid';
const event = { event_name: 'Purchase', event_time: now, event_id: uuid(), user_data };
await fetch(url, { method: 'POST', body: JSON.stringify({ data: [event] }) });`,
      errors: [{ messageId: 'mintedKey', line: 2 }],
    },
  ],
});
