import type { BrokerAdapter } from '../analysis/index.js';

/**
 * NestJS CQRS: `commandBus.execute(new ReviewCardCommand(…))` hands a command to the handler that
 * changes state for it, in this process. A command dispatched is work, as a message sent is; a
 * query (`queryBus.execute(…)`) only asks.
 */
export const nestjsCqrs: BrokerAdapter = {
  kind: 'broker',
  name: 'nestjs-cqrs',
  modules: ['@nestjs/cqrs'],
  sends: { receiverMethods: [{ method: 'execute', receiver: /(^|\.)commandBus$/i }] },
};
