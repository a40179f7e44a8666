/**
 * Browser-safe part of payments: the gateway's types and the sandbox's public test numbers. The sandbox itself
 * and its store are server-only: import `sandbox.server.ts` / `store.server.ts` directly.
 */
export type * from "./gateway.ts";
export * from "./test-numbers.ts";
