import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';
import { lintProject } from '../support/project.js';

const imports = `import { authenticate } from '@shopify/shopify-app-remix/server';`;

describe('shopify adapter', () => {
  it.each([
    [
      'the webhook id and the event id',
      `${imports} export async function action({ request }) { probe(request.headers.get('X-Shopify-Webhook-Id')); probe(request.headers.get('x-shopify-event-id')); }`,
      [['delivery:the Shopify webhook id'], ['delivery:the Shopify event id']],
    ],
    [
      "an Express request's headers by index",
      `import '@shopify/shopify-api/adapters/node'; app.post('/webhooks', (req, res) => { probe(req.headers['x-shopify-webhook-id']); probe(req.header('X-Shopify-Triggered-At')); });`,
      [['delivery:the Shopify webhook id'], ['time']],
    ],
    [
      'near miss: the same header in a file that reaches no Shopify library',
      `export async function action({ request }) { probe(request.headers.get('X-Shopify-Webhook-Id')); }`,
      [['unknown']],
    ],
    [
      'near miss: another header in a Shopify file',
      `${imports} export async function action({ request }) { probe(request.headers.get('X-Shopify-Shop-Domain')); }`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });

  const route = (shopifyModule: string) => `
import { authenticate } from '${shopifyModule}';
import { stripe } from '../payments.server';

export const action = async ({ request }) => {
  const { payload } = await authenticate.webhook(request);
  const webhookId = request.headers.get('X-Shopify-Webhook-Id');
  await stripe.refunds.create({ charge: payload.charge_id }, { idempotencyKey: webhookId });
  return new Response();
};
`;

  it("reads the headers as the delivery's in a route that imports the app's Shopify module, not in one that imports another", async () => {
    const { findings } = await lintProject({
      'app/shopify.server.ts':
        "import { shopifyApp } from '@shopify/shopify-app-remix/server';\nexport const { authenticate } = shopifyApp({});\n",
      'app/auth.server.ts':
        'export const authenticate = { webhook: async (request) => ({ payload: await request.json() }) };\n',
      'app/payments.server.ts': 'export const stripe = {};\n',
      'app/routes/webhooks.refunds.ts': route('../shopify.server'),
      'app/routes/hooks.refunds.ts': route('../auth.server'),
    });
    expect(findings).toEqual(['app/routes/webhooks.refunds.ts:8 idempotency/no-delivery-id-effect-key/deliveryKey']);
  });

  it("follows the app's Shopify module through the tsconfig's paths too (`~/shopify.server`)", async () => {
    const { findings } = await lintProject({
      'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '~/*': ['app/*'] } } }),
      'app/shopify.server.ts':
        "import { shopifyApp } from '@shopify/shopify-app-remix/server';\nexport const { authenticate } = shopifyApp({});\n",
      'app/payments.server.ts': 'export const stripe = {};\n',
      'app/routes/webhooks.refunds.ts': route('~/shopify.server'),
    });
    expect(findings).toEqual(['app/routes/webhooks.refunds.ts:8 idempotency/no-delivery-id-effect-key/deliveryKey']);
  });
});
