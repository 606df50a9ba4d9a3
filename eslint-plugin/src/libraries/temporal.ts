import type { BrokerAdapter } from '../analysis/index.js';

/**
 * Temporal activities (@temporalio/activity): `Context.current().info` and `activityInfo()`.
 * The activity id, attempt and task token belong to one execution of the activity; the workflow
 * id is chosen by whoever starts the workflow and names the operation.
 */
export const temporal: BrokerAdapter = {
  kind: 'broker',
  name: 'temporal',
  entry: 'Temporal activity',
  entryKind: 'job',
  modules: ['@temporalio/activity'],
  shapes: {
    context: { otherMembers: 'opaque', members: { info: { shape: 'temporal:info' } } },
    info: {
      otherMembers: 'unknown',
      members: {
        attempt: { identity: 'the Temporal activity attempt' },
        activityId: { identity: 'the Temporal activity id' },
        taskToken: { identity: 'the Temporal task token' },
        base64TaskToken: { identity: 'the Temporal task token' },
        currentAttemptScheduledTimestampMs: { identity: 'the time this attempt was scheduled' },
        workflowExecution: { shape: 'temporal:execution' },
        heartbeatDetails: { shape: 'payload' },
        activityType: { kind: 'unknown' },
        taskQueue: { kind: 'unknown' },
        workflowType: { kind: 'unknown' },
      },
    },
    execution: {
      otherMembers: 'unknown',
      members: {
        workflowId: { kind: 'business' },
        runId: { identity: 'the Temporal workflow run id' },
      },
    },
  },
  results: [
    // Context.current(): only the activity Context of a file that imports it.
    { call: 'current', receiver: /(^|\.)Context$/, evidence: { imports: true }, shape: 'temporal:context' },
    { call: 'activityInfo', evidence: { imports: true }, shape: 'temporal:info' },
  ],
  types: [{ type: 'Info', from: ['@temporalio/activity'], shape: 'temporal:info' }],
  nameWords: ['temporal'],
};
