/** tmi.js's IRC line parser (lib/parser.js, CommonJS); @types/tmi.js does not describe it. */
declare module 'tmi.js/lib/parser.js' {
  const parser: { msg(line: string): unknown };
  export default parser;
}
