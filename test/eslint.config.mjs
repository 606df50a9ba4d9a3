import { sourceConfig } from '../eslint-plugin/eslint.config.mjs';

export default sourceConfig(import.meta.dirname);
