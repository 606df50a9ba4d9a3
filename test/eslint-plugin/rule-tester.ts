import { RuleTester } from '@typescript-eslint/rule-tester';
import { afterAll, describe, it } from 'vitest';

import { whenSqlParserReady } from '../../eslint-plugin/src/analysis/sql/parser.js';

// The rule tester registers its cases through these hooks; vitest provides them.
RuleTester.afterAll = afterAll;
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

// Analysis errors must surface in tests rather than be contained.
process.env.IDEMPOTENCY_LINT_STRICT = '1';

await whenSqlParserReady();

export const ruleTester = new RuleTester();
