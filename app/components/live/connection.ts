/**
 * The one real-time connection both widgets share on a page: the unmodified
 * `centrifuge` client against the hub at /ws (docs/contract/storefront.md §7, §9). Browser-only: call from
 * effects, never during render.
 */
import { Centrifuge, type PublicationContext } from "centrifuge";
import { CONNECTION_OPTIONS, WS_PATH } from "../../../core/domain/live/constants.ts";
import { getShopOrigin } from "./shop-origin.ts";

/** `wss://host/ws` on https pages, `ws://host/ws` otherwise. */
export function wsUrl(loc: { readonly protocol: string; readonly host: string }): string {
  return `${loc.protocol === "https:" ? "wss" : "ws"}://${loc.host}${WS_PATH}`;
}

export function createClient(url: string = wsUrl(new URL(getShopOrigin() ?? window.location.href))): Centrifuge {
  return new Centrifuge(url, { ...CONNECTION_OPTIONS });
}

let shared: Centrifuge | null = null;

/** The page's client, created and connected on first use. */
export function getClient(): Centrifuge {
  if (!shared) {
    shared = createClient();
    shared.connect();
  }
  return shared;
}

/** What the widgets need from the connection; tests pass fakes. */
export type Rpc = (method: string, data: unknown) => Promise<unknown>;
export type Subscribe = (channel: string, onData: (data: unknown) => void) => () => void;

/** Resolves with the reply's `data` (the SDK wraps it as `{data}`). */
export function clientRpc(client: Centrifuge = getClient()): Rpc {
  return async (method, data) => (await client.rpc(method, data)).data;
}

/**
 * Listens to a channel's publications. The client allows one subscription per
 * channel, so listeners share it and it is subscribed once.
 */
export function clientSubscribe(client: Centrifuge = getClient()): Subscribe {
  return (channel, onData) => {
    const sub = client.getSubscription(channel) ?? client.newSubscription(channel);
    const listener = (ctx: PublicationContext): void => onData(ctx.data);
    sub.on("publication", listener);
    if (sub.state === "unsubscribed") sub.subscribe();
    return () => {
      sub.removeListener("publication", listener);
    };
  };
}
