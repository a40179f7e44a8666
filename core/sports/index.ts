export * from "./badge.ts";
export * from "./leagues.ts";
export * from "./prng.ts";
export * from "./rpc.ts";
export * from "./simulator.ts";
export * from "./store.ts";
export * from "./timeline.ts";
export * from "./media.ts";
