import type { ValueAdapter } from '../analysis/index.js';

/**
 * SvelteKit: `$lib/…` names `src/lib/…` in a project with a `svelte.config` file. The alias lives
 * in the `.svelte-kit/tsconfig.json` SvelteKit generates when it runs, which a fresh checkout (a
 * CI runner, a reviewer's clone) does not have, so the analysis knows it without.
 */
export const sveltekit: ValueAdapter = {
  kind: 'values',
  name: 'sveltekit',
  modules: ['@sveltejs/kit'],
  importAliases: [
    { alias: '$lib', folder: 'src/lib', marker: ['svelte.config.js', 'svelte.config.ts', 'svelte.config.mjs'] },
  ],
};
