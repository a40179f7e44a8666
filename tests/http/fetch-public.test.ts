/**
 * server/http/fetch-public.ts against a real local HTTP server: a loopback address is refused unless allowed, a redirect
 * is checked again at its target, the size limit holds while reading, and only http(s) is fetched.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { FetchRefused, fetchPublic } from "../../server/http/fetch-public.ts";

let server: Server;
let base = "";
let port = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === "/image") res.writeHead(200, { "Content-Type": "image/png" }).end(Buffer.alloc(1000, 7));
    else if (req.url === "/big")
      res.writeHead(200).end(Buffer.alloc(5000, 1)); // no declared length problem: chunked or not, counted
    else if (req.url === "/to-ipv6-loopback") res.writeHead(302, { Location: `http://[::1]:${port}/image` }).end();
    else if (req.url === "/to-image") res.writeHead(301, { Location: "/image" }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => {
  server?.close();
});

const limits = (allowAddresses: string[] = []) => ({ maxBytes: 2000, timeoutMs: 5000, allowAddresses });

describe("fetchPublic", () => {
  it("refuses a loopback address by default, with a reason a person understands", async () => {
    await expect(fetchPublic(`${base}/image`, limits())).rejects.toThrow(
      new FetchRefused("a private or reserved network address, which the shop does not fetch"),
    );
  });

  it("fetches from an allowed address, following a redirect on it", async () => {
    expect(await fetchPublic(`${base}/image`, limits(["127.0.0.1"]))).toEqual(Buffer.alloc(1000, 7));
    expect((await fetchPublic(`${base}/to-image`, limits(["127.0.0.0/8"]))).length).toBe(1000);
  });

  it("checks a redirect's target again: an allowed host cannot send it to another private address", async () => {
    await expect(fetchPublic(`${base}/to-ipv6-loopback`, limits(["127.0.0.1"]))).rejects.toThrow(/private or reserved/);
  });

  it("stops at the size limit and refuses other schemes and error answers", async () => {
    await expect(fetchPublic(`${base}/big`, limits(["127.0.0.1"]))).rejects.toThrow(/larger than/);
    await expect(fetchPublic("file:///etc/passwd", limits())).rejects.toThrow(/file: addresses are not fetched/);
    await expect(fetchPublic(`${base}/missing`, limits(["127.0.0.1"]))).rejects.toThrow(/answered 404/);
  });
});
