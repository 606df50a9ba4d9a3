// `npm run try`: the real editor with the packaged extension, open on the plugin's examples, for
// anyone without VS Code. Stops (with everything it started) on Ctrl+C.
import path from 'node:path';

import { repositoryRoot, startCodeServer } from './code-server.mjs';

const workspace = path.join(repositoryRoot, 'eslint-plugin/examples');
const port = Number(process.env.PORT ?? 8080);

const server = await startCodeServer({ workspace, stateDir: path.join(repositoryRoot, '.cache/try'), port });
console.log(`\nVS Code (code-server) with Idempotency Lens is running on the examples:\n\n  ${server.workspaceUrl}\n\nPress Ctrl+C to stop.`);

const stop = async () => {
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
