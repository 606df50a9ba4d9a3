import { createRule } from '../create-rule.js';

export const noAmountEffectKey = createRule({
  name: 'no-amount-effect-key',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow keying a business effect by the identity of a delivery (message id, offset, job id, random id, worker)',
    },
    messages: {
      amountKey: 'x',
    },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
