// Public surface of the real-time hub. Everything else in this folder is internal.
export { createHub, type Hub, type HubOptions } from "./hub.ts";
export { createMemoryBroker } from "./broker-memory.ts";
export { createRedisBroker, type RedisBrokerOptions } from "./broker-redis.ts";
export type { Broker, BrokerHandler, HistoryOptions } from "./broker.ts";
export { HubError, ErrorCode, DisconnectCode, type StreamPosition, type Publication } from "./protocol.ts";
export type { RpcHandler, RpcContext, Logger } from "./rpc.ts";
