// `npm run try`: the real editor with the packaged extension, open on a copy of the plugin's
// examples, for anyone without VS Code. The editor saves as you type, so it works on a copy in a
// temporary folder: quick fixes and edits never change the examples the tests read. Stops (with
// everything it started, and the copy) on Ctrl+C.
import path from 'node:path';

import { copyOfExamples, repositoryRoot, startCodeServer } from './code-server.mjs';

const { workspace, remove } = copyOfExamples();
const port = Number(process.env.PORT ?? 8080);

const server = await startCodeServer({ workspace, stateDir: path.join(repositoryRoot, '.cache/try'), port });
console.log(
  `\nVS Code (code-server) with Idempotency Lens is running on a copy of the examples (${workspace}):\n\n  ${server.workspaceUrl}\n\nPress Ctrl+C to stop; the copy is deleted then.`,
);

const stop = async () => {
  await server.stop();
  remove();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
