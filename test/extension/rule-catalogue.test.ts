import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { catalogue, ruleNames as pluginRules } from '../../eslint-plugin/src/catalogue.js';
import { settingsSchema } from '../../eslint-plugin/src/settings.js';
import { ruleNames } from '../../extension/src/rules.js';

/** The extension lists the plugin's rules from its catalogue; its settings schema must name the same ones. */
describe('the extension and the rule catalogue', () => {
  const manifest = JSON.parse(
    readFileSync(fileURLToPath(new URL('../../extension/package.json', import.meta.url)), 'utf8'),
  ) as {
    contributes: {
      configuration: {
        properties: Record<string, { properties?: Record<string, unknown>; additionalProperties?: boolean }>;
      };
    };
  };

  it("knows the catalogue's rules", () => {
    expect(ruleNames).toEqual(pluginRules);
  });

  it('has a setting for each rule of the catalogue and no other', () => {
    const settings = manifest.contributes.configuration.properties['idempotency.rules']?.properties ?? {};
    expect(Object.keys(settings).sort()).toEqual(Object.keys(catalogue).sort());
  });

  it("describes the team's declarations with the plugin's own settings schema", () => {
    const declarations = manifest.contributes.configuration.properties['idempotency.declarations'];
    expect(declarations?.additionalProperties).toBe(settingsSchema.additionalProperties);
    expect(declarations?.properties).toEqual(JSON.parse(JSON.stringify(settingsSchema.properties)));
  });
});
