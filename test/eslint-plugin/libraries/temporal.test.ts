import { describe, expect, it } from 'vitest';

import { originsIn } from '../support/analyse.js';

const imports = `import { Context } from '@temporalio/activity';`;

describe('temporal adapter', () => {
  it.each([
    [
      'Context.current().info: attempt, activity id and task token',
      `${imports} export async function refund(input) { const { info } = Context.current(); probe(info.attempt); probe(info.activityId); probe(info.taskToken); }`,
      [
        ['delivery:the Temporal activity attempt'],
        ['delivery:the Temporal activity id'],
        ['delivery:the Temporal task token'],
      ],
    ],
    [
      'the workflow id names the operation',
      `${imports} export async function refund(input) { probe(Context.current().info.workflowExecution.workflowId); probe(Context.current().info.workflowExecution.runId); }`,
      [['business'], ['delivery:the Temporal workflow run id']],
    ],
    [
      'activityInfo()',
      `import { activityInfo } from '@temporalio/activity'; export async function charge() { probe(activityInfo().attempt); }`,
      [['delivery:the Temporal activity attempt']],
    ],
    [
      'a namespace import',
      `import * as activity from '@temporalio/activity'; export async function charge() { probe(activity.Context.current().info.activityId); }`,
      [['delivery:the Temporal activity id']],
    ],
    [
      'near miss: another Context.current(), in a file without Temporal: judged by name',
      `export async function charge() { probe(Context.current().info.activityId); }`,
      [['business']],
    ],
    [
      'near miss: current() of another receiver in a Temporal file: judged by name',
      `${imports} export async function charge() { probe(span.current().info.activityId); }`,
      [['business']],
    ],
  ])('%s', (_name, code, expected) => {
    expect(originsIn(code)).toEqual(expected);
  });
});
