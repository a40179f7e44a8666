// Public surface of the real-time hub. Everything else in this folder is internal.
export { createHub, type Hub, type HubOptions } from "./hub.ts";
export { createMemoryBroker } from "./broker-memory.ts";
export { createRedisBroker } from "./broker-redis.ts";
export type { Broker, BrokerHandler } from "./broker.ts";
export { HubError } from "./protocol.ts";
