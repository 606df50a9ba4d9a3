import { describe, expect, it } from 'vitest';

import { defaultLevelOn, ruleNames } from '../../extension/src/rules.js';
import { enabledRules, readSettings } from '../../extension/src/settings.js';
import { describeState } from '../../extension/src/status/lint-state.js';

const reader = (values: Record<string, unknown>) => ({ get: <T>(key: string) => values[key] as T });

describe('settings', () => {
  it("passes a team's declarations on as given, with schema paths read from the document's workspace folder", () => {
    const declarations = { sql: [{ call: 'db.run', sql: 0 }], schema: ['db/schema.sql', '/shared/schema.prisma'] };
    expect(readSettings(reader({ declarations }), '/work/app').declarations).toEqual({
      ...declarations,
      schema: ['/work/app/db/schema.sql', '/shared/schema.prisma'],
    });
    expect(readSettings(reader({ declarations })).declarations).toEqual(declarations);
    expect(readSettings(reader({ declarations: {} })).declarations).toBeUndefined();
    // Not an object: the plugin says so, naming the setting, rather than the declarations vanishing in silence.
    expect(readSettings(reader({ declarations: ['db.run'] })).declarations).toEqual(['db.run']);
  });

  it('has working defaults', () => {
    expect(readSettings(reader({}))).toEqual({
      enable: true,
      run: 'onType',
      typingDelayMs: 300,
      rules: Object.fromEntries(ruleNames.map((name) => [name, defaultLevelOn(name) ? 'warning' : 'off'])),
      deferToProjectEslint: false,
      maxFileSizeBytes: 512 * 1024,
      workspaceExclude: [],
      unreadable: [],
    });
  });

  it('replaces malformed values by defaults instead of failing, and says which for the log', () => {
    const settings = readSettings(
      reader({
        run: 'sometimes',
        typingDelay: -5,
        maxFileSizeKB: 'big',
        rules: { 'no-amount-effect-key': 'loud', 'no-check-then-insert': 'off' },
      }),
    );
    expect(settings.run).toBe('onType');
    expect(settings.typingDelayMs).toBe(300);
    expect(settings.maxFileSizeBytes).toBe(512 * 1024);
    expect(settings.rules['no-amount-effect-key']).toBe('warning');
    expect(enabledRules(settings)).toEqual(
      ruleNames.filter((name) => name !== 'no-check-then-insert' && defaultLevelOn(name)),
    );
    expect(enabledRules(settings)).toContain('no-delivery-id-effect-key');
    expect(settings.unreadable).toEqual([
      'The setting idempotency.rules.no-amount-effect-key is "loud", which is not one of its values; "warning" is used instead.',
      'The setting idempotency.run is "sometimes", which is not one of its values; "onType" is used instead.',
      'The setting idempotency.typingDelay is -5, which is not one of its values; 300 is used instead.',
      'The setting idempotency.maxFileSizeKB is "big", which is not one of its values; 512 is used instead.',
    ]);
  });
});

describe('status text', () => {
  it('says the checker is starting until the first result, then that a document is being checked', () => {
    expect(describeState('starting', undefined)).toMatchObject({
      text: 'Idempotency: starting…',
      busy: true,
      attention: false,
    });
    expect(describeState('starting', { kind: 'waiting' }).text).toBe('Idempotency: starting…');
    expect(describeState('active', { kind: 'waiting' }).text).toBe('Idempotency: checking…');
  });

  it('says what the check read besides the file, which the Problems panel cannot show; the count and time in the detail', () => {
    const at = new Date(2026, 0, 1, 14, 5, 9);
    const read = {
      schema: [
        { file: '/w/prisma/schema.prisma', kind: 'a Prisma schema' },
        { file: '/w/prisma/migrations/001_init/migration.sql', kind: 'SQL' },
        { file: '/w/prisma/migrations/002_refunds/migration.sql', kind: 'SQL' },
        { file: '/w/prisma/migrations/003_ledger/migration.sql', kind: 'SQL' },
      ],
      modules: ['/w/src/keys.ts', '/w/src/money.ts'],
    };
    const status = describeState('active', { kind: 'linted', findings: 2, durationMs: 12.4, at, read }, [], (file) =>
      file.slice('/w/'.length),
    );
    expect(status.text).toBe('Idempotency: checked with schema.prisma + 3 migrations, 2 helpers followed');
    expect(status.detail).toBe(
      'Schema: prisma/schema.prisma, prisma/migrations/001_init/migration.sql, prisma/migrations/002_refunds/migration.sql, prisma/migrations/003_ledger/migration.sql. Helpers followed: src/keys.ts, src/money.ts. 2 findings, last checked 14:05:09 in 12 ms.',
    );
    expect(status.attention).toBe(false);
    const linted = (reading: Parameters<typeof describeState>[1] & object) => describeState('active', reading).text;
    expect(linted({ kind: 'linted', findings: 0, durationMs: 3, at, read: { modules: [] } })).toBe(
      'Idempotency: checked, no schema needed',
    );
    expect(linted({ kind: 'linted', findings: 0, durationMs: 3, at, read: { schema: [], modules: ['/w/a.ts'] } })).toBe(
      'Idempotency: checked, no schema found, 1 helper followed',
    );
    expect(
      linted({
        kind: 'linted',
        findings: 1,
        durationMs: 3,
        at,
        read: { schema: [{ file: '/w/src/user.entity.ts', kind: 'model code' }], modules: [] },
      }),
    ).toBe('Idempotency: checked with 1 model file');
  });

  it('calls attention to a skipped file, with its size and the limit', () => {
    const status = describeState('active', { kind: 'too-large', sizeBytes: 700 * 1024, limitBytes: 512 * 1024 });
    expect(status).toMatchObject({ text: 'Idempotency: file not checked', attention: true });
    expect(status.detail).toContain('700 KB, over the 512 KB limit');
  });

  it('says when the project ESLint setup is trusted with the findings', () => {
    expect(describeState('active', { kind: 'off', because: 'deferred' }).text).toBe('Idempotency: via ESLint');
    expect(describeState('active', { kind: 'off', because: 'disabled' }).text).toBe('Idempotency: off');
  });
});
