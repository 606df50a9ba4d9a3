import type { BrokerAdapter } from '../analysis/index.js';

/**
 * ffc-messaging, a published wrapper around Azure Service Bus: `new MessageReceiver(config,
 * action)` calls `action` with each received message, which the action settles itself
 * (`receiver.completeMessage(message)`); a message not completed comes back when its lock ends.
 * The message is Service Bus's own, so its ids are read as that library's.
 */
export const ffcMessaging: BrokerAdapter = {
  kind: 'broker',
  name: 'ffc-messaging',
  entry: 'ffc-messaging receiver',
  modules: ['ffc-messaging'],
  shapes: {
    message: { inherits: 'azure-service-bus:message', otherMembers: 'unknown' },
  },
  handlers: [
    { construct: 'MessageReceiver', argument: 1, shape: 'ffc-messaging:message', evidence: { imports: true } },
  ],
  sends: { methods: ['sendMessage', 'sendBatchMessages'] },
  acknowledges: ['completeMessage', 'abandonMessage', 'deadLetterMessage', 'deferMessage'],
};
