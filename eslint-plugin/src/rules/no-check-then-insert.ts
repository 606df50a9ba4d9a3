import { createRule } from '../create-rule.js';

export const noCheckThenInsert = createRule({
  name: 'no-check-then-insert',
  meta: {
    type: 'problem',
    docs: {
      description: 'Disallow keying a business effect by the identity of a delivery (message id, offset, job id, random id, worker)',
    },
    messages: {
      checkThenInsert: 'x',
    },
    schema: [],
  },
  defaultOptions: [],
  create() {
    return {};
  },
});
