import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const admin = `import { getFirestore } from 'firebase-admin/firestore'; const db = getFirestore();`;
const modular = `import { getFirestore, collection, doc, query, where, limit, getDoc, getDocs, addDoc, setDoc, updateDoc, deleteDoc } from 'firebase/firestore'; const db = getFirestore();`;

const read = (targets: string[], filters?: string[]) => ({
  kind: 'read',
  library: 'firestore',
  targets,
  fields: [],
  ...(filters ? { filters } : {}),
  arbitrated: false,
  skipsDuplicates: false,
});

describe('firestore adapter', () => {
  it.each([
    [
      'a query with an equality filter is a read of that field',
      `${admin} await db.collection('events').where('eventId', '==', id).limit(1).get();`,
      [read(['event'], ['eventId'])],
    ],
    [
      'a document read through a constant reference matches on the document id',
      `${admin} const ref = db.collection('events').doc(eventId); const snap = await ref.get();`,
      [read(['event'], ['__name__'])],
    ],
    [
      'a range filter is a read that shows no equality',
      `${admin} await db.collection('events').where('createdAt', '>', since).get();`,
      [read(['event'])],
    ],
    ['listing a whole collection checks for nothing', `${admin} await db.collection('events').get();`, []],
    [
      'add makes a fresh id: an insert that nothing refuses twice',
      `${admin} await db.collection('events').add({ eventId: id, at: Date.now() });`,
      [
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['eventId', 'at'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'set on a named document overwrites it: arbitrated on the document id',
      `${admin} await db.collection('events').doc(id).set({ seen: true });`,
      [
        {
          kind: 'upsert',
          library: 'firestore',
          targets: ['event'],
          fields: ['__name__', 'seen'],
          conflictTarget: ['__name__'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'create on a named document is refused when it exists',
      `${admin} await db.collection('events').doc(id).create({ seen: true });`,
      [
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['__name__', 'seen'],
          conflictTarget: ['__name__'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'set on doc() without an id is a fresh document',
      `${admin} await db.collection('events').doc().set({ eventId: id });`,
      [
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['eventId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'update and delete of a document',
      `${admin} const ref = db.collection('orders').doc(id); await ref.update({ paid: true }); await ref.delete();`,
      [
        {
          kind: 'update',
          library: 'firestore',
          targets: ['order'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
        {
          kind: 'delete',
          library: 'firestore',
          targets: ['order'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a subcollection is named by its own name',
      `${admin} await db.collection('users').doc(uid).collection('payments').add({ amount });`,
      [
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['payment'],
          fields: ['amount'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      "a transaction's get and create name the reference they are given",
      `${admin} await db.runTransaction(async (t) => { const ref = db.collection('events').doc(id); const snap = await t.get(ref); if (!snap.exists) t.create(ref, { at: 1 }); });`,
      [
        { ...read(['event'], ['__name__']), serialisable: true },
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['__name__', 'at'],
          conflictTarget: ['__name__'],
          arbitrated: true,
          skipsDuplicates: false,
          serialisable: true,
        },
      ],
    ],
    [
      "a helper given the transaction reads through it: its reads and writes are the transaction's",
      `${admin} async function claim(t, id) { const seen = await t.get(db.collection('events').where('eventId', '==', id)); if (seen.empty) t.set(db.collection('events').doc(), { eventId: id }); }`,
      [
        { ...read(['event'], ['eventId']), serialisable: true },
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['eventId'],
          arbitrated: false,
          skipsDuplicates: false,
          serialisable: true,
        },
      ],
    ],
    [
      'near miss: a batch only writes, and is no transaction',
      `${admin} const batch = db.batch(); batch.set(db.collection('events').doc(), { eventId: id }); await batch.commit();`,
      [
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['eventId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'modular SDK: getDocs of a query with where, then addDoc',
      `${modular} const q = query(collection(db, 'events'), where('eventId', '==', id), limit(1)); const found = await getDocs(q); if (found.empty) await addDoc(collection(db, 'events'), { eventId: id });`,
      [
        read(['event'], ['eventId']),
        {
          kind: 'insert',
          library: 'firestore',
          targets: ['event'],
          fields: ['eventId'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'modular SDK: getDoc, setDoc, updateDoc and deleteDoc of doc(db, path, id)',
      `${modular} const ref = doc(db, 'users', uid, 'payments', id); await getDoc(ref); await setDoc(ref, { amount }); await updateDoc(ref, { paid: true }); await deleteDoc(ref);`,
      [
        read(['payment'], ['__name__']),
        {
          kind: 'upsert',
          library: 'firestore',
          targets: ['payment'],
          fields: ['__name__', 'amount'],
          conflictTarget: ['__name__'],
          arbitrated: true,
          skipsDuplicates: false,
        },
        {
          kind: 'update',
          library: 'firestore',
          targets: ['payment'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
        {
          kind: 'delete',
          library: 'firestore',
          targets: ['payment'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'modular SDK: a document named by one path names its id too',
      `${modular} await setDoc(doc(db, \`events/\${id}\`), { seen: true });`,
      [
        {
          kind: 'upsert',
          library: 'firestore',
          targets: ['event'],
          fields: ['__name__', 'seen'],
          conflictTarget: ['__name__'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: functions of the same names from another module are not Firestore',
      `import { doc, getDoc } from './my-store'; await getDoc(doc(db, 'events', id));`,
      [],
    ],
    [
      'near miss: a Map set and a cache get are not Firestore',
      `${admin} const seen = new Map(); seen.set(id, true); await cache.get(id);`,
      [],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
