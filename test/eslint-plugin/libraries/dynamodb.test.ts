import { describe, expect, it } from 'vitest';

import { operationsIn } from '../support/analyse.js';

const doc = `import { DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand, DeleteCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';`;
const low = `import { DynamoDBClient, GetItemCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';`;

const read = (targets: string[], filters?: string[]) => ({
  kind: 'read',
  library: 'dynamodb',
  targets,
  fields: [],
  ...(filters ? { filters } : {}),
  arbitrated: false,
  skipsDuplicates: false,
});

describe('dynamodb adapter', () => {
  it.each([
    [
      'GetCommand through send is a read of its table, matching its Key',
      `${doc} await client.send(new GetCommand({ TableName: 'inbox', Key: { pk: id } }));`,
      [read(['inbox'], ['pk'])],
    ],
    [
      'QueryCommand is a read',
      `${doc} await ddb.send(new QueryCommand({ TableName: 'inbox', KeyConditionExpression: 'pk = :pk' }));`,
      [read(['inbox'])],
    ],
    [
      'a plain PutCommand overwrites: an insert of its Item',
      `${doc} await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id, seenAt } }));`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk', 'seenAt'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'attribute_not_exists on an attribute of the Item arbitrates, by failing rather than skipping',
      `${doc} await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(pk)' }));`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          conflictTarget: ['pk'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'the attribute named through ExpressionAttributeNames',
      `${doc} await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(#k)', ExpressionAttributeNames: { '#k': 'pk' } }));`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          conflictTarget: ['pk'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: a condition on another attribute does not refuse an existing item',
      `${doc} await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id, status: 'done' }, ConditionExpression: '#status = :pending', ExpressionAttributeNames: { '#status': 'status' } }));`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk', 'status'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: attribute_not_exists OR another condition lets an existing item through',
      `${doc} await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(pk) OR expiresAt < :now' }));`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: attribute_not_exists of an attribute the Item does not write refuses nothing',
      `${doc} await client.send(new PutCommand({ TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(processedAt)' }));`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'the table from a constant, the request from a constant command',
      `${doc} const TABLE = 'processed_messages'; const put = new PutCommand({ TableName: TABLE, Item: { pk: id } }); await client.send(put);`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['processed_message'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an UpdateCommand is an update of its Key',
      `${doc} await client.send(new UpdateCommand({ TableName: 'accounts', Key: { pk: id }, UpdateExpression: 'ADD balance :amount' }));`,
      [
        {
          kind: 'update',
          library: 'dynamodb',
          targets: ['account'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an UpdateCommand that requires the item to be absent is a claim',
      `${doc} await client.send(new UpdateCommand({ TableName: 'inbox', Key: { pk: id }, UpdateExpression: 'SET seenAt = :now', ConditionExpression: 'attribute_not_exists(pk)' }));`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          conflictTarget: ['pk'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'an UpdateCommand that sets the attribute it requires to be absent is a claim',
      `${doc} await client.send(new UpdateCommand({ TableName: 'orders', Key: { pk: orderId }, UpdateExpression: 'SET #p = :now, note = :note', ConditionExpression: 'attribute_not_exists(#p)', ExpressionAttributeNames: { '#p': 'processedAt' } }));`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['order'],
          fields: ['pk'],
          conflictTarget: ['processedAt'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'near miss: an UpdateCommand requiring an attribute it does not set to be absent',
      `${doc} await client.send(new UpdateCommand({ TableName: 'orders', Key: { pk: orderId }, UpdateExpression: 'SET note = :note REMOVE processedAt', ConditionExpression: 'attribute_not_exists(processedAt)' }));`,
      [
        {
          kind: 'update',
          library: 'dynamodb',
          targets: ['order'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a table named by a template compares by its shape',
      `${doc} await client.send(new GetCommand({ TableName: \`\${stage}-inbox\`, Key: { pk: id } }));`,
      [read(['*-inbox'], ['pk'])],
    ],
    [
      'DeleteCommand is a delete',
      `${doc} await client.send(new DeleteCommand({ TableName: 'inbox', Key: { pk: id } }));`,
      [
        {
          kind: 'delete',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: [],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'TransactWriteCommand: one operation per item',
      `${doc} await client.send(new TransactWriteCommand({ TransactItems: [
        { Put: { TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: 'accounts', Key: { pk: account }, UpdateExpression: 'ADD balance :amount' } },
      ] }));`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          conflictTarget: ['pk'],
          arbitrated: true,
          skipsDuplicates: false,
        },
        {
          kind: 'update',
          library: 'dynamodb',
          targets: ['account'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'the low-level GetItemCommand',
      `${low} await client.send(new GetItemCommand({ TableName: 'inbox', Key: { pk: { S: id } } }));`,
      [read(['inbox'], ['pk'])],
    ],
    [
      'the low-level PutItemCommand: typed attribute values',
      `${low} await client.send(new PutItemCommand({ TableName: 'inbox', Item: { pk: { S: id } }, ConditionExpression: 'attribute_not_exists(pk)' }));`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          conflictTarget: ['pk'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'marshall() writes the object it is given',
      `${low} import { marshall } from '@aws-sdk/util-dynamodb'; await client.send(new PutItemCommand({ TableName: 'inbox', Item: marshall({ pk: id, seenAt }) }));`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk', 'seenAt'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'DocumentClient v2: get(…).promise() is a read',
      `import AWS from 'aws-sdk'; await docClient.get({ TableName: 'inbox', Key: { pk: id } }).promise();`,
      [read(['inbox'], ['pk'])],
    ],
    [
      'DocumentClient v2: put(…).promise() is an insert',
      `import AWS from 'aws-sdk'; await docClient.put({ TableName: 'inbox', Item: { pk: id } }).promise();`,
      [
        {
          kind: 'insert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          arbitrated: false,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'the v3 aggregated document client: put() without promise()',
      `import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb'; await this.ddb.put({ TableName: 'inbox', Item: { pk: id }, ConditionExpression: 'attribute_not_exists(pk)' });`,
      [
        {
          kind: 'upsert',
          library: 'dynamodb',
          targets: ['inbox'],
          fields: ['pk'],
          conflictTarget: ['pk'],
          arbitrated: true,
          skipsDuplicates: false,
        },
      ],
    ],
    [
      'a client named so needs no import',
      `await dynamo.get({ TableName: 'inbox', Key: { pk: id } }).promise();`,
      [read(['inbox'], ['pk'])],
    ],
    [
      "near miss: another SDK's send of a GetCommand",
      `import { GetCommand } from 'some-other-sdk'; await client.send(new GetCommand({ TableName: 'inbox', Key: { pk: id } }));`,
      [],
    ],
    [
      'near miss: send of a command of another AWS client',
      `import { SendMessageCommand } from '@aws-sdk/client-sqs'; await client.send(new SendMessageCommand({ QueueUrl, MessageBody }));`,
      [],
    ],
    [
      'near miss: a get with TableName on an unnamed client, no DynamoDB import',
      `await store.get({ TableName: 'inbox', Key: { pk: id } });`,
      [],
    ],
    [
      'near miss: a get without TableName',
      `import AWS from 'aws-sdk'; await docClient.get({ key: id }).promise();`,
      [],
    ],
  ])('%s', (_name, code, expected) => {
    expect(operationsIn(code)).toEqual(expected);
  });
});
