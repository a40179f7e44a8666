/**
 * The contact form (docs/contract/storefront.md §4 'Contact form') and its messages for staff
 * (docs/contract/rest/shop-v1.md 'Contact messages'): a plain POST to /contact/ answered by the server — field errors
 * with ARIA, a honeypot that keeps nothing, a limit per client address —, the message stored and e-mailed to the
 * owner through the outbox, and shop/v1/contact-messages for staff only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";
import { CONTACT_RATE_LIMIT } from "../../core/commerce/contact-messages.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "contact-admin@example.com", "administrator");
  manager = await signInAs(shop, "contact-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "contact-customer@example.com", "customer");
});
afterAll(async () => shop?.close());

type Json = Record<string, unknown>;
const call = (who: SignedIn, method: string, path: string, json?: unknown) =>
  who.client.request(`/wp-json/${path}`, { method, headers: { "X-WP-Nonce": who.nonce }, ...(json === undefined ? {} : { json }) });
const send = (address: string, form: Record<string, string>) => new TestClient(shop.url).post("/contact/", form, { headers: { "X-Forwarded-For": address } });
const good = { contact_name: "Grace Hopper", contact_email: "grace@example.com", contact_message: "Do you sew masks for children too?", website: "" };
const count = async (table: string, where = "true") =>
  (await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`))[0]!.n;

describe("the contact form", () => {
  it("is on the Contact page, server-rendered, with its honeypot out of reach", async () => {
    const html = await (await fetch(`${shop.url}/contact/`)).text();
    const at = html.indexOf("contact-form__form");
    const form = html.slice(html.lastIndexOf("<form", at), html.indexOf(">", at) + 1);
    for (const attribute of ['method="post"', 'action="/contact/#contact-form"', 'noValidate=""']) expect(form).toContain(attribute);
    expect(html).toMatch(/<input[^>]*id="contact_name"[^>]*name="contact_name"/);
    expect(html).toMatch(/<div class="contact-form__hp" aria-hidden="true">/);
    expect(html).toMatch(/<input type="text" id="contact_website" tabindex="-1"[^>]*name="website"/);
    // Other pages have no form (a post to them is the cart's no-JS handler's: back to the page).
    expect(await (await fetch(`${shop.url}/about/`)).text()).not.toContain("contact_name");
  });

  it("refuses bad fields one by one, with role=alert, aria-invalid and aria-describedby, keeping what was typed", async () => {
    const before = await count("contact_messages");
    const res = await send("198.51.100.1", { contact_name: "", contact_email: "not-an-address", contact_message: "Hi", website: "" });
    expect(res.status).toBe(400);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(html).toContain('role="alert"');
    expect(html).toContain("please correct these 3 fields");
    for (const field of ["name", "email", "message"]) {
      expect(html).toMatch(new RegExp(`id="contact_${field}"[^>]*aria-invalid="true"[^>]*aria-describedby="contact_${field}-error`));
      expect(html).toContain(`id="contact_${field}-error"`);
    }
    expect(html).toContain("Please enter your name.");
    expect(html).toContain("Please enter a valid e-mail address");
    expect(html).toContain("Your message is too short");
    expect(html).toContain('value="not-an-address"');
    // Too long, and a name with a line break.
    const long = (await (await send("198.51.100.1", { ...good, contact_name: "A\nB", contact_message: "x".repeat(5001) })).text()).replaceAll("<!-- -->", "");
    expect(long).toContain("Your name cannot contain line breaks.");
    expect(long).toContain("Your message is too long: at most 5000 characters (it has 5001).");
    expect(await count("contact_messages")).toBe(before);
  });

  it("stores a good message and e-mails it to the owner through the outbox", async () => {
    const res = await send("198.51.100.2", good);
    expect(res.status).toBe(200);
    const html = (await res.text()).replaceAll("<!-- -->", "");
    expect(html).toMatch(/role="status">Thank you: your message was sent\. We answer at grace@example\.com/);
    const [row] = await shop.services.db.query<Json>(`SELECT name, email, message, client_address, read_at FROM contact_messages ORDER BY id DESC LIMIT 1`);
    expect(row).toMatchObject({
      name: "Grace Hopper",
      email: "grace@example.com",
      message: good.contact_message,
      client_address: "198.51.100.2",
      read_at: null,
    });
    const [mail] = await shop.services.db.query<Json>(
      `SELECT to_address, subject, body FROM email_outbox WHERE kind = 'contact_message' ORDER BY id DESC LIMIT 1`,
    );
    expect(mail!.subject).toBe("[Maskerade] New message from Grace Hopper");
    expect(mail!.body).toContain(good.contact_message);
    expect(mail!.body).toContain("grace@example.com");
    // The first administrator, as the site's e-mail setting is empty.
    const [owner] = await shop.services.db.query<{ email: string }>(`SELECT email FROM customers WHERE role = 'administrator' ORDER BY id LIMIT 1`);
    expect(mail!.to_address).toBe(owner!.email);
  });

  it("answers a filled honeypot as a success, and keeps and sends nothing", async () => {
    const [messages, mails] = [await count("contact_messages"), await count("email_outbox")];
    const res = await send("198.51.100.3", { ...good, website: "https://spam.example" });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("Thank you: your message was sent.");
    expect([await count("contact_messages"), await count("email_outbox")]).toEqual([messages, mails]);
  });

  it(`takes ${CONTACT_RATE_LIMIT.max} messages an hour from one address, then refuses (429) with an alert; another address is not held back`, async () => {
    for (let i = 0; i < CONTACT_RATE_LIMIT.max; i++) expect((await send("198.51.100.4", good)).status).toBe(200);
    const before = await count("contact_messages");
    const refused = await send("198.51.100.4", good);
    expect(refused.status).toBe(429);
    const html = await refused.text();
    expect(html).toMatch(/role="alert">You have sent several messages in a short time/);
    expect(html).toContain("Do you sew masks for children too?"); // what was typed is kept
    expect(await count("contact_messages")).toBe(before);
    expect((await send("198.51.100.5", good)).status).toBe(200);
  });
});

describe("shop/v1/contact-messages", () => {
  it("is for staff: a guest gets 401, a customer 403", async () => {
    const guest = new TestClient(shop.url);
    expect((await guest.get("/wp-json/shop/v1/contact-messages")).status).toBe(401);
    expect((await guest.get("/wp-json/shop/v1/contact-messages/1")).status).toBe(401);
    for (const [method, path] of [
      ["GET", "shop/v1/contact-messages"],
      ["GET", "shop/v1/contact-messages/1"],
      ["PATCH", "shop/v1/contact-messages/1"],
    ] as const) {
      const res = await call(customer, method, path, method === "PATCH" ? { status: "read" } : undefined);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(((await res.json()) as Json).code).toBe("rest_forbidden");
    }
  });

  it("lists newest first with paging headers, filters by status, and marks read (audited) and unread", async () => {
    await send("198.51.100.6", { ...good, contact_name: "Newest sender" });
    const list = await call(manager, "GET", "shop/v1/contact-messages?per_page=2");
    expect(list.status).toBe(200);
    expect(Number(list.headers.get("x-wp-total"))).toBeGreaterThanOrEqual(2);
    const [newest] = (await list.json()) as Json[];
    expect(newest).toMatchObject({ name: "Newest sender", email: "grace@example.com", status: "unread", read_gmt: null });
    const read = await call(admin, "PATCH", `shop/v1/contact-messages/${newest!.id}`, { status: "read" });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: newest!.id, status: "read", read_gmt: expect.any(String) });
    const unread = (await (await call(admin, "GET", "shop/v1/contact-messages?status=unread&per_page=100")).json()) as Json[];
    expect(unread.map((m) => m.id)).not.toContain(newest!.id);
    const readList = (await (await call(admin, "GET", "shop/v1/contact-messages?status=read")).json()) as Json[];
    expect(readList.map((m) => m.id)).toContain(newest!.id);
    expect(await count("audit_log", `object_type = 'contact_message' AND object_id = '${newest!.id}'`)).toBe(1);
    expect(await (await call(admin, "PUT", `shop/v1/contact-messages/${newest!.id}`, { status: "unread" })).json()).toMatchObject({ status: "unread" });
    // Bad input and unknown ids.
    expect(((await (await call(admin, "PATCH", `shop/v1/contact-messages/${newest!.id}`, { status: "spam" })).json()) as Json).code).toBe("rest_invalid_param");
    expect((await call(admin, "GET", "shop/v1/contact-messages/99999999")).status).toBe(404);
    expect(((await (await call(admin, "GET", "shop/v1/contact-messages?status=bogus")).json()) as Json).code).toBe("rest_invalid_param");
  });

  it("replies: the visitor gets the reply by e-mail with their message quoted, once however often Send is pressed; the message lists it", async () => {
    await send("198.51.100.7", { ...good, contact_name: "Ada Reply", contact_email: "ada.reply@example.com", contact_message: "Line one\nLine two" });
    const [message] = (await (await call(admin, "GET", "shop/v1/contact-messages?per_page=1")).json()) as Json[];
    expect(message).toMatchObject({ name: "Ada Reply", status: "unread", replies: [] });
    const path = `shop/v1/contact-messages/${message!.id}/replies`;
    const mailsBefore = await count("email_outbox", "kind = 'contact_reply'");
    // Three clicks of Send at once: one reply and one e-mail; the others are told it was already sent.
    const text = "  Yes, we sew children's sizes too.\nBest, the shop  ";
    const answers = await Promise.all([1, 2, 3].map(() => call(manager, "POST", path, { message: text })));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    const refused = (await answers.find((r) => r.status === 409)!.json()) as Json;
    expect(refused.code).toBe("rest_contact_reply_duplicate");
    const made = (await answers.find((r) => r.status === 201)!.json()) as Json;
    expect(made).toMatchObject({
      id: message!.id,
      status: "read",
      replies: [{ message: text.trim(), author: { name: expect.any(String) }, email: { status: expect.any(String) } }],
    });
    expect(await count("email_outbox", "kind = 'contact_reply'")).toBe(mailsBefore + 1);
    const [mail] = await shop.services.db.query<{ to_address: string; subject: string; body: string }>(
      `SELECT to_address, subject, body FROM email_outbox WHERE kind = 'contact_reply' ORDER BY id DESC LIMIT 1`,
    );
    expect(mail!.to_address).toBe("ada.reply@example.com");
    expect(mail!.subject).toMatch(/^Re: your message to /);
    expect(mail!.body).toContain("Hello Ada Reply,\n\nYes, we sew children's sizes too.\nBest, the shop\n");
    expect(mail!.body).toContain("> Line one\n> Line two");
    expect(await count("audit_log", `object_type = 'contact_message' AND object_id = '${message!.id}' AND action = 'reply'`)).toBe(1);
    // Another text is another reply; the list shows both, oldest first.
    expect((await call(admin, "POST", path, { message: "One more thing: we ship on Mondays." })).status).toBe(201);
    const again = (await (await call(admin, "GET", `shop/v1/contact-messages/${message!.id}`)).json()) as { replies: Json[] };
    expect(again.replies.map((r) => r.message)).toEqual([text.trim(), "One more thing: we ship on Mondays."]);
    // Refusals change nothing: an empty or too long text (400 at its field), an unknown message (404), a customer (403).
    const empty = await call(admin, "POST", path, { message: "   " });
    expect(empty.status).toBe(400);
    expect(((await empty.json()) as Json).code).toBe("rest_invalid_param");
    expect((await call(admin, "POST", path, { message: "x".repeat(5001) })).status).toBe(400);
    expect((await call(admin, "POST", path, {})).status).toBe(400);
    expect((await call(admin, "POST", "shop/v1/contact-messages/99999999/replies", { message: "Hello" })).status).toBe(404);
    const forbidden = await call(customer, "POST", path, { message: "Hello" });
    expect(forbidden.status).toBe(403);
    expect(await count("email_outbox", "kind = 'contact_reply'")).toBe(mailsBefore + 2);
  });
});
