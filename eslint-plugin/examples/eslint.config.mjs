// The whole setup a project needs: the recommended config (it parses .ts with typescript-eslint).
import idempotency from 'eslint-plugin-idempotency';

export default [...idempotency.configs.recommended];
