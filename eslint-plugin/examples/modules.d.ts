// The examples are read, not run: the libraries they use are not installed here, so the editor
// takes each of them as untyped instead of reporting it missing. A name an example uses as a
// type (BullMQ's generic Job) needs a declaration of its own: a module declared without a body
// offers values only.
declare module 'kafkajs';
declare module 'stripe';
declare module 'bullmq' {
  export interface Job<Data = any> {
    id?: string;
    name: string;
    data: Data;
  }
  export const Worker: any;
}
declare module 'amqplib';
declare module 'ioredis';
declare module '@prisma/client';
declare module '@aws-sdk/client-sqs';
