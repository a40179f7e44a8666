/**
 * Downloads a file the server is asked to fetch by address (the product import's images, decision 0039): only http and
 * https, never a private, loopback, link-local or reserved address (a staff member's CSV must not make the shop read
 * its own network or a cloud metadata service), checked on the address actually connected to — after DNS, on every
 * redirect — by request-filtering-agent; at most `maxBytes`, within `timeoutMs`, at most three redirects.
 * `allowAddresses` (IMPORT_ALLOWED_ADDRESSES: IPs or CIDR ranges) lets a shop fetch from a host of its own network,
 * such as the old shop it is moving from.
 */
import http from "node:http";
import https from "node:https";
import { RequestFilteringHttpAgent, RequestFilteringHttpsAgent } from "request-filtering-agent";

export class FetchRefused extends Error {}

export interface FetchLimits {
  maxBytes: number;
  timeoutMs: number;
  allowAddresses: readonly string[];
}

const MAX_REDIRECTS = 3;

export async function fetchPublic(address: string, limits: FetchLimits): Promise<Buffer> {
  const options = { allowIPAddressList: [...limits.allowAddresses], keepAlive: false };
  const agents = { http: new RequestFilteringHttpAgent(options), https: new RequestFilteringHttpsAgent(options) };
  const deadline = AbortSignal.timeout(limits.timeoutMs);
  try {
    let url = new URL(address);
    for (let redirects = 0; ; redirects++) {
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new FetchRefused(`${url.protocol} addresses are not fetched`);
      const res = await get(url, url.protocol === "https:" ? agents.https : agents.http, deadline);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (redirects >= MAX_REDIRECTS) throw new FetchRefused("too many redirects");
        url = new URL(res.headers.location, url);
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new FetchRefused(`answered ${status}`);
      }
      if (Number(res.headers["content-length"] ?? 0) > limits.maxBytes) {
        res.destroy();
        throw new FetchRefused(`larger than ${Math.round(limits.maxBytes / 1_048_576)} MB`);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of res as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > limits.maxBytes) {
          res.destroy();
          throw new FetchRefused(`larger than ${Math.round(limits.maxBytes / 1_048_576)} MB`);
        }
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    }
  } catch (error) {
    if (error instanceof FetchRefused) throw error;
    if (deadline.aborted) throw new FetchRefused(`no answer within ${Math.round(limits.timeoutMs / 1000)} s`);
    // The agent's refusal reads "DNS lookup 127.0.0.1(family:4, host:…) is not allowed. Because, It is private IP address."
    const message = (error as Error).message;
    throw new FetchRefused(/is not allowed/.test(message) ? "a private or reserved network address, which the shop does not fetch" : message);
  } finally {
    agents.http.destroy();
    agents.https.destroy();
  }
}

function get(url: URL, agent: http.Agent, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? https : http).get(url, { agent, signal }, resolve);
    req.on("error", reject);
  });
}
