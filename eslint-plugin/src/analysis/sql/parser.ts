export function whenSqlParserReady(): Promise<void> { return Promise.resolve(); }
