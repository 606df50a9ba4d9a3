import { describe, expect, it } from 'vitest';

import { writingMethod } from '../../../eslint-plugin/src/analysis/work/requests.js';
import { inFile } from '../support/file.js';

/** The method each call of `callees` writes with, or `-` for a request that only asks (or no request). */
const methods = (code: string, callees: readonly string[]) =>
  inFile(code, (file, call) => callees.map((callee) => writingMethod(call(callee), file) ?? '-'));

describe('http-clients adapter', () => {
  it.each([
    [
      "axios's methods are named for the request method",
      `import axios from 'axios'; await axios.post(url, body); await axios.get(url); await axios.delete(url);`,
      ['axios.post', 'axios.get', 'axios.delete'],
      ['POST', '-', 'DELETE'],
    ],
    [
      'an instance axios.create() made, here or in a constant',
      `import axios from 'axios'; const api = axios.create({ baseURL }); await api.put('/orders/1', order); await api.get('/orders');`,
      ['api.put', 'api.get'],
      ['PUT', '-'],
    ],
    [
      'the method option of a config, first or second argument',
      `import axios from 'axios'; await axios({ method: 'post', url }); await axios.request({ method: 'GET', url });`,
      ['axios', 'axios.request'],
      ['POST', '-'],
    ],
    [
      'got and ky by their module, under any local name',
      `import http from 'got'; import ky from 'ky'; await http.post(url, { json }); await ky.patch(url, { json });`,
      ['http.post', 'ky.patch'],
      ['POST', 'PATCH'],
    ],
    [
      'fetch, global or imported, by its method option only',
      `import fetch from 'node-fetch'; await fetch(url, { method: 'POST', body }); await fetch(url);`,
      ['fetch'],
      ['POST'],
    ],
    [
      'a method named post on anything else is not a request',
      `const form = makeForm(); await form.post(data); await router.post('/hooks', handler);`,
      ['form.post', 'router.post'],
      ['-', '-'],
    ],
  ])('%s', (_name, code, callees, expected) => {
    expect(methods(code, callees)).toEqual(expected);
  });
});
