import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import { Receiver } from '@upstash/qstash';`;

describe('qstash adapter', () => {
  it.each([
    [
      'headers.get: the message id and the retry count',
      `${imports} export async function POST(req: Request) { probe(req.headers.get('Upstash-Message-Id')); probe(req.headers.get('upstash-retried')); }`,
      [['delivery:the QStash message id'], ['delivery:the QStash retry count']],
    ],
    [
      "a Node request's headers by index",
      `import { verifySignature } from '@upstash/qstash/nextjs'; async function handler(request, res) { probe(request.headers['upstash-message-id']); }`,
      [['delivery:the QStash message id']],
    ],
    [
      'destructured headers, and an Express header read',
      `${imports} app.post('/hook', (req, res) => { const { headers } = req; probe(headers.get('Upstash-Message-Id')); probe(req.header('Upstash-Retried')); });`,
      [['delivery:the QStash message id'], ['delivery:the QStash retry count']],
    ],
    [
      'the parsed body is the payload',
      `${imports} export async function POST(req: Request) { const body = await req.json(); probe(body.orderId); }`,
      [['business']],
    ],
    [
      'near miss: the same header in a file without QStash is judged by its name',
      `export async function POST(req: Request) { probe(req.headers.get('Upstash-Message-Id')); }`,
      [['unknown']],
    ],
    [
      'near miss: another header in a QStash file',
      `${imports} export async function POST(req: Request) { probe(req.headers.get('X-Order-Id')); }`,
      [['unknown']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
