// The examples are read, not run: the libraries they use are not installed here, so the editor
// takes each of them as untyped instead of reporting it missing.
declare module 'kafkajs';
declare module 'stripe';
declare module 'bullmq';
declare module 'amqplib';
declare module 'ioredis';
declare module '@prisma/client';
declare module '@aws-sdk/client-sqs';
