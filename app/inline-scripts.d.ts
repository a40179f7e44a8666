/** `?iife` imports (vite.config.ts): a module built into one classic script, as its source text. */
declare module "*?iife" {
  const code: string;
  export default code;
}
