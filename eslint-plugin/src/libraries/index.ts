import { LibraryTable, type LibraryAdapter } from '../analysis/index.js';
import { agenda } from './agenda.js';
import { amqplib } from './amqplib.js';
import { awsLambda } from './aws-lambda.js';
import { awsSqs } from './aws-sqs.js';
import { azureServiceBus } from './azure-service-bus.js';
import { betterQueue } from './better-queue.js';
import { bullmq } from './bullmq.js';
import { cliCommands } from './cli-commands.js';
import { common } from './common.js';
import { convex } from './convex.js';
import { cron } from './cron.js';
import { drizzle } from './drizzle.js';
import { dynamodb } from './dynamodb.js';
import { fastq } from './fastq.js';
import { firestore } from './firestore.js';
import { googlePubsub } from './google-pubsub.js';
import { graphileWorker } from './graphile-worker.js';
import { httpClients } from './http-clients.js';
import { idGenerators } from './id-generators.js';
import { inngest } from './inngest.js';
import { kafkajs } from './kafkajs.js';
import { knex } from './knex.js';
import { kysely } from './kysely.js';
import { liquibase } from './liquibase.js';
import { memoryCaches } from './memory-caches.js';
import { mikroOrm } from './mikro-orm.js';
import { mongodb } from './mongodb.js';
import { mongoose } from './mongoose.js';
import { nats } from './nats.js';
import { nestjs } from './nestjs.js';
import { nestjsSchedule } from './nestjs-schedule.js';
import { nodeCron } from './node-cron.js';
import { nodePgMigrate } from './node-pg-migrate.js';
import { objection } from './objection.js';
import { pgBoss } from './pg-boss.js';
import { powertools } from './powertools.js';
import { prisma } from './prisma.js';
import { providerApis } from './provider-apis.js';
import { pulsar } from './pulsar.js';
import { qstash } from './qstash.js';
import { redis } from './redis.js';
import { redisStreams } from './redis-streams.js';
import { runtime } from './runtime.js';
import { sequelize } from './sequelize.js';
import { shopify } from './shopify.js';
import { sql } from './sql.js';
import { stripe } from './stripe.js';
import { supabase } from './supabase.js';
import { sveltekit } from './sveltekit.js';
import { temporal } from './temporal.js';
import { triggerDev } from './trigger-dev.js';
import { typeorm } from './typeorm.js';
import { redisLocks } from './redis-locks.js';
import { nestjsCqrs } from './nestjs-cqrs.js';
import { azureFunctions } from './azure-functions.js';
import { ffcMessaging } from './ffc-messaging.js';

export type { LibraryAdapter, LibraryName } from '../analysis/index.js';

/**
 * Every library the plugin knows. Data adapters are asked in this order, and the first that
 * recognises a call answers: SQL text first (any client), then the stores and ORMs that need
 * evidence of their own (a command class, a collection, an import), then the query builders,
 * Redis, and the repository APIs whose method names overlap the most.
 */
export const libraries: readonly LibraryAdapter[] = [
  // Values and conventions
  runtime,
  httpClients,
  idGenerators,
  memoryCaches,
  common,
  cliCommands,
  sveltekit,
  // Brokers and handler frameworks
  kafkajs,
  amqplib,
  // Before BullMQ: an Agenda `Job` type is the one imported from Agenda, BullMQ's is any `Job`.
  agenda,
  bullmq,
  awsSqs,
  awsLambda,
  pgBoss,
  graphileWorker,
  googlePubsub,
  nestjs,
  pulsar,
  nats,
  azureServiceBus,
  stripe,
  inngest,
  qstash,
  shopify,
  betterQueue,
  fastq,
  temporal,
  triggerDev,
  redisStreams,
  powertools,
  // Schedules
  nodeCron,
  cron,
  nestjsSchedule,
  nestjsCqrs,
  azureFunctions,
  ffcMessaging,
  // Databases and stores
  sql,
  dynamodb,
  mongodb,
  firestore,
  convex,
  mikroOrm,
  objection,
  prisma,
  drizzle,
  kysely,
  supabase,
  knex,
  redisLocks,
  redis,
  typeorm,
  sequelize,
  mongoose,
  nodePgMigrate,
  liquibase,
  // Providers that move money or send
  providerApis,
];

export const defaultLibraryTable = new LibraryTable(libraries);
