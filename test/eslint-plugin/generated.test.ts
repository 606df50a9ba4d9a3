import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  generatedFiles,
  placeLabel,
  renderExtensionManifest,
  renderReadme,
} from '../../eslint-plugin/scripts/generate.js';
import { ruleNames } from '../../eslint-plugin/src/catalogue.js';

/** What lists the rules is written from the catalogue: the committed copies must be what `npm run generate` writes. */
describe('files generated from the rule catalogue', () => {
  it.each(Object.entries({ readme: renderReadme, extensionManifest: renderExtensionManifest }))(
    '%s is up to date',
    (name, render) => {
      const file = generatedFiles[name as keyof typeof generatedFiles];
      const text = readFileSync(file, 'utf8');
      expect(render(text), `${file} is out of date with the catalogue: run npm run generate`).toBe(text);
    },
  );

  it('writes a row per rule, in the catalogue’s order', () => {
    const readme = renderReadme(readFileSync(generatedFiles.readme, 'utf8'));
    const rows = [...readme.matchAll(/^\| \[`([a-z-]+)`\]\(eslint-plugin\/docs\/rules\//gm)].map((match) => match[1]);
    expect(rows).toEqual(ruleNames);
  });

  it('notices a table that was edited by hand', () => {
    const readme = readFileSync(generatedFiles.readme, 'utf8');
    const edited = readme.replace(`[\`${ruleNames[0]}\`]`, '[`renamed`]');
    expect(renderReadme(edited)).not.toBe(edited);
    expect(() => renderReadme('# no table here')).toThrow(/no generated rule table/);
  });

  it('names lesson places as a reader says them', () => {
    expect(['q1', 'example-4-4', 'tip-1'].map(placeLabel)).toEqual(['question 1', 'example 4.4', 'tip 1']);
  });
});
