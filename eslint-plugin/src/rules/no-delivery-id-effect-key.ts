import { createRule } from '../create-rule.js';

export const noDeliveryIdEffectKey = createRule({
  name: 'no-delivery-id-effect-key',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow keying a business effect by the identity of a delivery (message id, offset, job id, random id, worker)',
    },
    messages: {
      deliveryKey: 'x',
    },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
