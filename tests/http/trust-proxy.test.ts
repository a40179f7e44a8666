/** TRUST_PROXY decides who may name the client's address; the per-address limits count by it. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";

let shop: TestShop;
beforeAll(async () => {
  shop = await startTestShop({ TRUST_PROXY: "false" });
});
afterAll(async () => shop?.close());

const hidden = (html: string, name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(html)?.[1] ?? "";

describe("TRUST_PROXY=false", () => {
  it("ignores X-Forwarded-For: a client cannot escape the per-address reset limit by naming other addresses", async () => {
    const client = new TestClient(shop.url);
    const nonce = hidden(await (await client.get("/my-account/lost-password/")).text(), "_wpnonce");
    const ask = async (i: number) =>
      (
        await client.request("/my-account/lost-password/", {
          method: "POST",
          headers: { "x-forwarded-for": `198.51.100.${i}` },
          form: { _wpnonce: nonce, user_login: `nobody${i}@example.com`, intent: "request" },
        })
      ).text();
    for (let i = 0; i < 10; i++) expect(await ask(i)).toContain("If an account matches");
    expect(await ask(99)).toContain("Too many attempts. Please wait a few minutes and try again.");
  });

  it("refuses a malformed setting at start", async () => {
    await expect(startTestShop({ TRUST_PROXY: "loopback; rm -rf" })).rejects.toThrow(/TRUST_PROXY/);
  });
});
