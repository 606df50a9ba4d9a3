import type { ValueAdapter } from '../analysis/index.js';

/** The request methods that change something in the other system. */
const writing = ['POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * HTTP clients: a request that changes another system is an effect, named by the client's method
 * (`axios.post(url, body)`, `got.put(…)`, `api.delete(…)` on an instance `axios.create()` made) or
 * by the method option (`axios({ method: 'post', url })`, `ofetch(url, { method: 'POST' })`).
 */
export const httpClients: ValueAdapter = {
  kind: 'values',
  name: 'http-clients',
  modules: ['axios', 'got', 'ky', 'ofetch', 'superagent'],
  requests: [
    { call: 'axios', methodOption: 'method', writing, verbs: true },
    { call: 'got', methodOption: 'method', writing, verbs: true },
    { call: 'ky', methodOption: 'method', writing, verbs: true },
    { call: 'ofetch', methodOption: 'method', writing },
    { call: 'superagent', methodOption: 'method', writing, verbs: true },
  ],
};
