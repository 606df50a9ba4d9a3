import type { ValueAdapter } from '../analysis/index.js';

/** uuid, ulid, nanoid, cuid and MongoDB's ObjectId: new ids on every call, except name-based UUIDs (v3, v5). */
export const idGenerators: ValueAdapter = {
  kind: 'values',
  name: 'id-generators',
  modules: ['uuid', 'ulid', 'ulidx', 'nanoid', 'cuid', '@paralleldrive/cuid2', 'bson', 'mongodb'],
  mintingCalls: {
    uuid: 'a random UUID',
    uuidv4: 'a random UUID',
    uuidV4: 'a random UUID',
    v4: 'a random UUID',
    v1: 'a time-based UUID',
    v7: 'a time-based UUID',
    uuidv7: 'a time-based UUID',
    uuidv1: 'a time-based UUID',
    randomUUIDv7: 'a time-based UUID',
    ulid: 'a new ULID',
    nanoid: 'a new nanoid',
    cuid: 'a new cuid',
    createId: 'a new cuid',
    ObjectId: 'a new ObjectId',
  },
  mintingConstructors: { ObjectId: 'a new ObjectId' },
  // nanoid's generators of a chosen alphabet or size: \`const guid = customAlphabet(alphabet, 5)\`, then \`guid()\`.
  mintingFactories: { customAlphabet: 'a new nanoid', customRandom: 'a new nanoid' },
  // A name-based UUID is the same for the same name: derived from its arguments.
  deriving: /^v5$|^v3$|uuidv5|uuidv3/i,
};
