import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

describe('supabase adapter', () => {
  it.each([
    [
      'a select filtered by eq is a read of the columns it matches',
      `await supabase.from('transactions').select('id').eq('order_id', orderId).maybeSingle();`,
      [
        {
          kind: 'read',
          library: 'supabase',
          targets: ['transaction'],
          fields: [],
          filters: ['order_id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an insert with its fields',
      `await supabase.from('transactions').insert({ order_id: orderId, amount });`,
      [
        {
          kind: 'insert',
          library: 'supabase',
          targets: ['transaction'],
          fields: ['order_id', 'amount'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an upsert settles duplicates on its onConflict columns',
      `await supabase.from('user_stats').upsert({ user_id: id, balance }, { onConflict: 'user_id' });`,
      [
        {
          kind: 'upsert',
          library: 'supabase',
          targets: ['user_stat'],
          fields: ['user_id', 'balance'],
          conflictTarget: ['user_id'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'ignoreDuplicates makes it an insert that writes nothing on a duplicate',
      `await client.from('inbox').upsert({ message_id: id }, { onConflict: 'message_id', ignoreDuplicates: true }).select();`,
      [
        {
          kind: 'insert',
          library: 'supabase',
          targets: ['inbox'],
          fields: ['message_id'],
          conflictTarget: ['message_id'],
          arbitrated: true,
          skipsDuplicates: true,
        },
      ],
    ],
    [
      'update and delete',
      `await supabase.from('orders').update({ paid: true }).eq('id', id); await supabase.from('carts').delete().eq('id', id);`,
      [
        {
          kind: 'update',
          library: 'supabase',
          targets: ['order'],
          fields: ['paid'],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
        {
          kind: 'delete',
          library: 'supabase',
          targets: ['cart'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an update with the fields it sets and the rows its filters pick',
      `await supabase.from('notifications').update({ push_sent_at: now }).eq('id', notification.id);`,
      [
        {
          kind: 'update',
          library: 'supabase',
          targets: ['notification'],
          fields: ['push_sent_at'],
          filters: ['id'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      "a client made by the project's own Supabase module, with no PostgREST method in the chain",
      `import { createAdminClient } from '@/lib/supabase/admin';\nconst admin = createAdminClient();\nawait admin.from('wallet_transactions').insert({ reference });`,
      [
        {
          kind: 'insert',
          library: 'supabase',
          targets: ['wallet_transaction'],
          fields: ['reference'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });

  it('leaves a knex chain with no Supabase evidence to knex', () => {
    expect(operationsIn(`await knex.from('refunds').insert({ refund_id: id });`)).toEqual([
      {
        kind: 'insert',
        library: 'knex',
        targets: ['refund'],
        fields: ['refund_id'],
        arbitrated: false,
        skipsDuplicates: false,
      },
    ]);
  });

  it('a file that imports supabase-js makes a plain from().insert() Supabase', () => {
    expect(
      operationsIn(
        `import { createClient } from '@supabase/supabase-js';\nawait db.from('refunds').insert({ refund_id: id });`,
      ),
    ).toEqual([
      {
        kind: 'insert',
        library: 'supabase',
        targets: ['refund'],
        fields: ['refund_id'],
        arbitrated: false,
        skipsDuplicates: false,
      },
    ]);
  });
});
