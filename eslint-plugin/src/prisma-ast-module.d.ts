// The parser's ES module build: its CommonJS entry requires chevrotain, whose packages are ES
// modules only, which some loaders (tsx, older bundlers) cannot require.
declare module '@mrleebo/prisma-ast/dist/prisma-ast.esm.js' {
  export * from '@mrleebo/prisma-ast';
}
