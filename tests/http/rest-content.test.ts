/**
 * The content routes of the staff REST API (docs/contract/rest/content.md): wp/v2 posts, pages, categories, tags,
 * types, taxonomies and settings — happy paths, refusals for guests and customers, bad input, fetch-all paging over
 * the Link header, `_embed`, and that writes show on the storefront at once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestShop, type TestShop } from "../support/shop.ts";
import { TestClient } from "../support/client.ts";
import { signInAs, type SignedIn } from "../support/staff.ts";

let shop: TestShop;
let admin: SignedIn;
let manager: SignedIn;
let customer: SignedIn;
let guest: TestClient;

beforeAll(async () => {
  shop = await startTestShop();
  admin = await signInAs(shop, "content-admin@example.com", "administrator");
  manager = await signInAs(shop, "content-manager@example.com", "shop_manager");
  customer = await signInAs(shop, "content-customer@example.com", "customer");
  guest = new TestClient(shop.url);
});
afterAll(async () => shop?.close());

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- WordPress's JSON answers

const headers = (who: SignedIn) => ({ "X-WP-Nonce": who.nonce });
const get = (who: SignedIn | null, path: string) => (who ? who.client.get(`/wp-json/${path}`, { headers: headers(who) }) : guest.get(`/wp-json/${path}`));
const send = (who: SignedIn | null, method: string, path: string, body: unknown = {}) =>
  (who ? who.client : guest).request(`/wp-json/${path}`, { method, json: body, headers: who ? headers(who) : {} });
const body = async (res: Response) => (await res.json()) as Json;
const auditCount = async (objectType: string, objectId: number | string) =>
  (
    await shop.services.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM audit_log WHERE object_type = $1 AND object_id = $2`, [
      objectType,
      String(objectId),
    ])
  )[0]!.n;

describe("wp/v2/posts: reading", () => {
  it("lists published posts in WordPress's full shape and reads one by id", async () => {
    const res = await get(null, "wp/v2/posts?per_page=2");
    expect(res.status).toBe(200);
    const [first] = (await res.json()) as Json[];
    for (const key of ["id", "date", "date_gmt", "guid", "modified", "modified_gmt", "slug", "status", "type", "link", "title", "content", "excerpt"])
      expect(first, key).toHaveProperty(key);
    for (const key of ["author", "featured_media", "comment_status", "ping_status", "sticky", "template", "format", "meta", "categories", "tags", "_links"])
      expect(first, key).toHaveProperty(key);
    expect(first!.status).toBe("publish");
    expect(first!.type).toBe("post");
    expect(first!.content).toMatchObject({ protected: false });
    expect(first!.content.raw).toBeUndefined();
    expect(first!.categories.length).toBe(1);
    const one = await get(null, `wp/v2/posts/${first!.id}`);
    expect(one.status).toBe(200);
    expect((await body(one)).slug).toBe(first!.slug);
  });

  it("an unknown id is rest_post_invalid_id 404; a page's id is not a post", async () => {
    const res = await get(null, "wp/v2/posts/999999999");
    expect(res.status).toBe(404);
    expect(await body(res)).toEqual({ code: "rest_post_invalid_id", message: "Invalid post ID.", data: { status: 404 } });
    expect((await get(null, "wp/v2/posts/abc")).status).toBe(404);
  });

  it("context=edit is for staff: a guest gets 401, a customer 403 rest_forbidden_context", async () => {
    const g = await get(null, "wp/v2/posts?context=edit");
    expect(g.status).toBe(401);
    expect((await body(g)).code).toBe("rest_forbidden_context");
    const c = await get(customer, "wp/v2/posts?context=edit");
    expect(c.status).toBe(403);
    expect((await body(c)).code).toBe("rest_forbidden_context");
    const m = await get(manager, "wp/v2/posts?context=edit&per_page=1");
    expect(m.status).toBe(200);
    const [post] = (await m.json()) as Json[];
    expect(typeof post!.title.raw).toBe("string");
    expect(typeof post!.content.raw).toBe("string");
  });

  it("other statuses are for staff (rest_forbidden_status); bad list parameters are rest_invalid_param", async () => {
    expect((await body(await get(null, "wp/v2/posts?status=draft"))).code).toBe("rest_forbidden_status");
    expect((await get(customer, "wp/v2/posts?status=draft")).status).toBe(403);
    expect((await get(manager, "wp/v2/posts?status=draft,publish")).status).toBe(200);
    for (const bad of ["per_page=0", "per_page=101", "status=bogus", "orderby=random", "include=a", "after=yesterday", "context=admin", "slug=a%00b"]) {
      const res = await get(null, `wp/v2/posts?${bad}`);
      expect(res.status, bad).toBe(400);
      const b = await body(res);
      expect(b.code, bad).toBe("rest_invalid_param");
      expect(Object.keys(b.data.params), bad).toEqual([bad.split("=")[0]]);
    }
    expect((await body(await get(null, "wp/v2/posts?orderby=relevance"))).code).toBe("rest_no_search_term_defined");
    expect((await body(await get(null, "wp/v2/posts?orderby=include"))).code).toBe("rest_orderby_include_missing_include");
  });

  it("filters: include with orderby=include, exclude, slug, search with relevance, order", async () => {
    const all = (await (await get(null, "wp/v2/posts?per_page=100")).json()) as Json[];
    const [a, b, c] = all.map((p) => p.id as number);
    const included = (await (await get(null, `wp/v2/posts?include=${c},${a}&orderby=include`)).json()) as Json[];
    expect(included.map((p) => p.id)).toEqual([c, a]);
    const excluded = (await (await get(null, `wp/v2/posts?exclude=${a}&per_page=100`)).json()) as Json[];
    expect(excluded.map((p) => p.id)).not.toContain(a);
    const bySlug = (await (await get(null, `wp/v2/posts?slug=${all[1]!.slug}`)).json()) as Json[];
    expect(bySlug.map((p) => p.id)).toEqual([b]);
    const relevant = await get(null, "wp/v2/posts?search=mask&orderby=relevance");
    expect(relevant.status).toBe(200);
    const asc = (await (await get(null, "wp/v2/posts?orderby=id&order=asc&per_page=100")).json()) as Json[];
    expect(asc.map((p) => p.id)).toEqual([...asc.map((p) => p.id as number)].sort((x, y) => x - y));
  });

  it("_embed adds the featured image and the terms (and the author when there is one)", async () => {
    const res = await get(null, "wp/v2/posts?per_page=1&_embed");
    const [post] = (await res.json()) as Json[];
    expect(post!._embedded["wp:featuredmedia"][0]).toMatchObject({ id: post!.featured_media, type: "attachment", media_type: "image" });
    expect(post!._embedded["wp:term"][0][0]).toMatchObject({ taxonomy: "category", slug: "uncategorized" });
    expect(post!._links["wp:featuredmedia"][0].embeddable).toBe(true);
    const plain = (await (await get(null, "wp/v2/posts?per_page=1")).json()) as Json[];
    expect(plain[0]!._embedded).toBeUndefined();
  });
});

describe("wp/v2/posts: writing", () => {
  it("a guest gets 401 and a customer 403 with WordPress's codes, and nothing is written", async () => {
    const before = Number((await get(manager, "wp/v2/posts?status=any")).headers.get("x-wp-total"));
    const g = await send(null, "POST", "wp/v2/posts", { title: "Nope" });
    expect(g.status).toBe(401);
    expect((await body(g)).code).toBe("rest_cannot_create");
    const c = await send(customer, "POST", "wp/v2/posts", { title: "Nope" });
    expect(c.status).toBe(403);
    expect((await body(c)).code).toBe("rest_cannot_create");
    const [first] = (await (await get(null, "wp/v2/posts?per_page=1")).json()) as Json[];
    expect((await body(await send(null, "POST", `wp/v2/posts/${first!.id}`, { title: "x" }))).code).toBe("rest_cannot_edit");
    expect((await send(customer, "PATCH", `wp/v2/posts/${first!.id}`, { title: "x" })).status).toBe(403);
    expect((await body(await send(null, "DELETE", `wp/v2/posts/${first!.id}?force=true`))).code).toBe("rest_cannot_delete");
    expect((await send(customer, "DELETE", `wp/v2/posts/${first!.id}`)).status).toBe(403);
    expect(Number((await get(manager, "wp/v2/posts?status=any")).headers.get("x-wp-total"))).toBe(before);
  });

  it("creates a draft (201, slug from the title, content sanitised) that only staff see, then publishes it to the storefront", async () => {
    const res = await send(manager, "POST", "wp/v2/posts", {
      title: "Spring <b>Colours</b> & Prints",
      content: '<p onclick="steal()">Hello<script>alert(1)</script> <a href="javascript:alert(2)">there</a></p><img src=x onerror=alert(3)>',
      excerpt: "New prints for spring.",
    });
    expect(res.status).toBe(201);
    const post = await body(res);
    expect(res.headers.get("location")).toMatch(new RegExp(`/wp-json/wp/v2/posts/${post.id}$`));
    expect(post).toMatchObject({ status: "draft", slug: "spring-colours-prints", type: "post", author: manager.id });
    expect(post.title.raw).toBe("Spring Colours & Prints");
    expect(post.content.raw).toBe('<p>Hello <a>there</a></p><img src="x">');
    expect(post.content.raw).not.toMatch(/script|onclick|onerror|javascript/);
    expect(await auditCount("post", post.id)).toBe(1);

    expect((await get(null, `wp/v2/posts/${post.id}`)).status).toBe(401);
    expect((await get(customer, `wp/v2/posts/${post.id}`)).status).toBe(403);
    expect(((await (await get(null, "wp/v2/posts?per_page=100")).json()) as Json[]).map((p) => p.id)).not.toContain(post.id);
    expect((await guest.get("/blog/spring-colours-prints/")).status).toBe(404);

    // api-fetch sends PATCH as POST with the override header.
    const published = await manager.client.request(`/wp-json/wp/v2/posts/${post.id}`, {
      method: "POST",
      json: { status: "publish" },
      headers: { ...headers(manager), "X-HTTP-Method-Override": "PATCH" },
    });
    expect(published.status).toBe(200);
    expect((await body(published)).status).toBe("publish");
    const page = await guest.get("/blog/spring-colours-prints/");
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain("Spring Colours &amp; Prints");
    expect(html).toContain("<p>Hello <a>there</a></p>");
    expect(html).not.toMatch(/alert\([123]\)|steal\(\)/);
    expect(await (await guest.get("/blog/")).text()).toContain("Spring Colours &amp; Prints");
    expect(await auditCount("post", post.id)).toBe(2);

    // The same title again gets the next free slug.
    const again = await body(await send(admin, "POST", "wp/v2/posts", { title: "Spring Colours & Prints", status: "publish" }));
    expect(again.slug).toBe("spring-colours-prints-2");
  });

  it("schedules: published with a date to come is future, and shows on the storefront when the date comes", async () => {
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19);
    const res = await send(manager, "POST", "wp/v2/posts", { title: "Next week", status: "publish", date_gmt: inAnHour });
    const post = await body(res);
    expect(post).toMatchObject({ status: "future", date_gmt: inAnHour });
    expect((await get(null, `wp/v2/posts/${post.id}`)).status).toBe(401);
    expect((await guest.get("/blog/next-week/")).status).toBe(404);
    // Moved into the past by an editor: published at once.
    const moved = await body(await send(manager, "PATCH", `wp/v2/posts/${post.id}`, { date_gmt: "2020-01-01T10:00:00" }));
    expect(moved.status).toBe("publish");
    // Left to its date: the scheduler publishes it (every 10 s).
    const later = await body(await send(manager, "POST", "wp/v2/posts", { title: "Soon", status: "future", date_gmt: inAnHour }));
    expect(later.status).toBe("future");
    await shop.services.db.query(`UPDATE posts SET published_at = now() - interval '1 minute' WHERE id = $1`, [later.id]);
    let status = 404;
    for (let i = 0; i < 30 && status !== 200; i++) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      status = (await guest.get("/blog/soon/")).status;
    }
    expect(status).toBe(200);
  });

  it("posts written at the same moment with one title each get their own slug", async () => {
    const made = await Promise.all(Array.from({ length: 5 }, () => send(manager, "POST", "wp/v2/posts", { title: "Same moment" })));
    expect(made.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    const slugs = await Promise.all(made.map(async (r) => (await body(r)).slug as string));
    expect(new Set(slugs).size).toBe(5);
    expect(slugs).toContain("same-moment");
  });

  it("refuses bad input naming the parameter, and writes nothing", async () => {
    const cases: [Json, string][] = [
      [{ title: 42 }, "title"],
      [{ title: "x", status: "published" }, "status"],
      [{ title: "x", categories: [999999] }, "categories"],
      [{ title: "x", date: "tomorrow" }, "date"],
      [{ title: "x", comment_status: "maybe" }, "comment_status"],
      [{ title: "x", format: "novel" }, "format"],
      [{ title: "x", password: "secret" }, "password"],
    ];
    for (const [input, param] of cases) {
      const res = await send(manager, "POST", "wp/v2/posts", input);
      expect(res.status, param).toBe(400);
      const b = await body(res);
      expect(b.code, param).toBe("rest_invalid_param");
      expect(Object.keys(b.data.params), param).toContain(param);
    }
    expect((await body(await send(manager, "POST", "wp/v2/posts", {}))).code).toBe("empty_content");
    expect((await body(await send(manager, "POST", "wp/v2/posts", { title: "x", featured_media: 999999 }))).code).toBe("rest_invalid_featured_media");
    expect((await body(await send(manager, "POST", "wp/v2/posts", { title: "x", author: 999999 }))).code).toBe("rest_invalid_author");
    expect((await body(await send(manager, "POST", "wp/v2/posts", { id: 5, title: "x" }))).code).toBe("rest_post_exists");
    expect((await send(manager, "PATCH", "wp/v2/posts/999999999", { title: "x" })).status).toBe(404);
    const none = (await (await get(manager, "wp/v2/posts?status=any&search=x&per_page=100")).json()) as Json[];
    expect(none.filter((p) => p.title.raw === "x")).toEqual([]);
  });

  it("DELETE trashes (then 410), DELETE ?force=true deletes; each is audited", async () => {
    const post = await body(await send(manager, "POST", "wp/v2/posts", { title: "Short-lived", status: "publish" }));
    const trashed = await send(manager, "DELETE", `wp/v2/posts/${post.id}`);
    expect(trashed.status).toBe(200);
    expect((await body(trashed)).status).toBe("trash");
    expect((await guest.get("/blog/short-lived/")).status).toBe(404);
    const again = await send(manager, "DELETE", `wp/v2/posts/${post.id}`);
    expect(again.status).toBe(410);
    expect((await body(again)).code).toBe("rest_already_trashed");
    const forced = await send(manager, "DELETE", `wp/v2/posts/${post.id}?force=true`);
    expect(forced.status).toBe(200);
    expect(await body(forced)).toMatchObject({ deleted: true, previous: { id: post.id, status: "trash" } });
    expect((await get(manager, `wp/v2/posts/${post.id}`)).status).toBe(404);
    expect(await auditCount("post", post.id)).toBe(3);
  });

  it("fetches more than 100 posts by following Link rel=next, as api-fetch does for per_page=-1", async () => {
    for (let i = 0; i < 110; i++) {
      await shop.services.db.query(`INSERT INTO posts (slug, title, content, author) VALUES ($1, $2, '<p>bulk</p>', 'Bulk')`, [`bulk-${i}`, `Bulk post ${i}`]);
    }
    const total = Number((await get(null, "wp/v2/posts?per_page=1")).headers.get("x-wp-total"));
    expect(total).toBeGreaterThan(100);
    const seen: number[] = [];
    let next: string | null = "/wp-json/wp/v2/posts?per_page=100&_fields=id";
    let pages = 0;
    while (next) {
      const res = await guest.get(next);
      expect(res.status).toBe(200);
      seen.push(...((await res.json()) as Json[]).map((p) => p.id as number));
      next = /<([^>]+)>; rel="next"/.exec(res.headers.get("link") ?? "")?.[1]?.replace(/^http:\/\/[^/]+/, "") ?? null;
      pages++;
    }
    expect(pages).toBe(Math.ceil(total / 100));
    expect(seen.length).toBe(total);
    expect(new Set(seen).size).toBe(total);

    // The same with the unmodified @wordpress/api-fetch, which turns per_page=-1 into pages of 100 (wire.md §2.7).
    // The globals it needs are removed again: the next test files share this module graph, and PGlite reads
    // `window` to decide whether it runs in a browser.
    const g = globalThis as unknown as { window?: unknown; navigator?: unknown };
    const hadWindow = "window" in g;
    const hadNavigator = "navigator" in g;
    g.window ??= globalThis;
    g.navigator ??= { onLine: true };
    try {
      const { default: apiFetch } = await import("@wordpress/api-fetch");
      const root = apiFetch.createRootURLMiddleware(`${shop.url}/wp-json/`);
      apiFetch.use(root);
      try {
        const all = (await apiFetch({ path: "/wp/v2/posts?per_page=-1&_fields=id" })) as Json[];
        expect(all.length).toBe(total);
      } finally {
        apiFetch.unregister(root); // the module is shared with later test files
      }
    } finally {
      if (!hadWindow) delete g.window;
      if (!hadNavigator) delete g.navigator;
    }
  });
});

describe("wp/v2/pages", () => {
  it("creates pages apart from posts, with parent and menu_order; the blog does not show them", async () => {
    const g = await send(null, "POST", "wp/v2/pages", { title: "About" });
    expect(g.status).toBe(401);
    expect((await body(g)).code).toBe("rest_cannot_create");
    expect((await send(customer, "POST", "wp/v2/pages", { title: "About" })).status).toBe(403);
    const about = await body(await send(manager, "POST", "wp/v2/pages", { title: "About us", content: "<p>We make masks.</p>", status: "publish" }));
    expect(about).toMatchObject({ type: "page", slug: "about-us", parent: 0, menu_order: 0 });
    expect(about.categories).toBeUndefined();
    const team = await send(manager, "POST", "wp/v2/pages", { title: "Team", parent: about.id, menu_order: 2, status: "publish" });
    expect(team.status).toBe(201);
    const teamPage = await body(team);
    expect(teamPage.parent).toBe(about.id);
    const children = (await (await get(null, `wp/v2/pages?parent=${about.id}`)).json()) as Json[];
    expect(children.map((p) => p.slug)).toEqual(["team"]);
    expect(((await (await get(null, "wp/v2/pages?menu_order=2")).json()) as Json[]).map((p) => p.slug)).toEqual(["team"]);
    expect((await get(null, `wp/v2/posts/${about.id}`)).status).toBe(404);
    expect(((await (await get(null, "wp/v2/posts?search=About us")).json()) as Json[]).length).toBe(0);
    expect(await (await guest.get("/blog/")).text()).not.toContain("About us");
    // A published page has its own address on the storefront; a draft has none, nor may a page take the shop's addresses.
    const shown = await guest.get("/about-us/");
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain("<p>We make masks.</p>");
    const draft = await body(await send(manager, "POST", "wp/v2/pages", { title: "Secret plans" }));
    expect((await guest.get(`/${draft.slug}/`)).status).toBe(404);
    expect((await body(await send(manager, "POST", "wp/v2/pages", { title: "Cart", status: "publish" }))).slug).toBe("cart-2");
    // A page cannot be its own ancestor.
    expect((await body(await send(manager, "PATCH", `wp/v2/pages/${about.id}`, { parent: teamPage.id }))).code).toBe("rest_post_invalid_id");
    expect((await body(await send(manager, "PATCH", `wp/v2/pages/${about.id}`, { menu_order: "first" }))).code).toBe("rest_invalid_param");
  });
});

describe("wp/v2/categories and wp/v2/tags", () => {
  it("lists the blog's categories with counts; staff create, rename and delete them (force only)", async () => {
    const list = (await (await get(null, "wp/v2/categories")).json()) as Json[];
    const uncategorized = list.find((c) => c.slug === "uncategorized")!;
    expect(uncategorized).toMatchObject({ name: "Uncategorized", taxonomy: "category", parent: 0 });
    expect(uncategorized.count).toBeGreaterThanOrEqual(14);
    expect(list.every((c) => c.taxonomy === "category")).toBe(true); // product categories are not blog categories

    expect((await body(await send(null, "POST", "wp/v2/categories", { name: "Care" }))).code).toBe("rest_cannot_create");
    expect((await send(customer, "POST", "wp/v2/categories", { name: "Care" })).status).toBe(403);
    const care = await send(manager, "POST", "wp/v2/categories", { name: "Care guides", description: "How to <b>wash</b>" });
    expect(care.status).toBe(201);
    const cat = await body(care);
    expect(cat).toMatchObject({ name: "Care guides", slug: "care-guides", description: "How to wash", count: 0 });
    const dup = await send(manager, "POST", "wp/v2/categories", { name: "care guides" });
    expect(dup.status).toBe(400);
    expect((await body(dup)).code).toBe("term_exists");
    expect((await body(await send(manager, "POST", "wp/v2/categories", {}))).code).toBe("rest_missing_callback_param");
    expect((await body(await send(manager, "POST", "wp/v2/categories", { name: "Sub", parent: 999999 }))).code).toBe("rest_term_invalid");
    const child = await body(await send(manager, "POST", "wp/v2/categories", { name: "Silk care", parent: cat.id }));
    expect(child.parent).toBe(cat.id);
    expect((await body(await send(manager, "PATCH", `wp/v2/categories/${cat.id}`, { parent: child.id }))).code).toBe("rest_term_invalid");

    const renamed = await send(manager, "POST", `wp/v2/categories/${cat.id}`, { name: "Care" });
    expect((await body(renamed)).name).toBe("Care");
    expect((await body(await send(null, "POST", `wp/v2/categories/${cat.id}`, { name: "x" }))).code).toBe("rest_cannot_update");

    const post = await body(await send(manager, "POST", "wp/v2/posts", { title: "Washing silk", status: "publish", categories: [cat.id] }));
    expect(post.categories).toEqual([cat.id]);
    const filtered = (await (await get(null, `wp/v2/posts?categories=${cat.id}`)).json()) as Json[];
    expect(filtered.map((p) => p.id)).toEqual([post.id]);
    expect((await body(await get(null, `wp/v2/categories/${cat.id}`))).count).toBe(1);

    const soft = await send(manager, "DELETE", `wp/v2/categories/${cat.id}`);
    expect(soft.status).toBe(501);
    expect((await body(soft)).code).toBe("rest_trash_not_supported");
    expect((await send(manager, "DELETE", `wp/v2/categories/${uncategorized.id}?force=true`)).status).toBe(403);
    const gone = await send(manager, "DELETE", `wp/v2/categories/${cat.id}?force=true`);
    expect(await body(gone)).toMatchObject({ deleted: true, previous: { id: cat.id, name: "Care" } });
    expect((await get(null, `wp/v2/categories/${cat.id}`)).status).toBe(404);
    expect((await body(await get(null, `wp/v2/categories/${child.id}`))).parent).toBe(0); // moved up, as WordPress does
    expect(await auditCount("category", cat.id)).toBe(3);
  });

  it("tags: created, set on a post, filtered by, embedded", async () => {
    const tag = await body(await send(admin, "POST", "wp/v2/tags", { name: "Linen" }));
    expect(tag).toMatchObject({ taxonomy: "post_tag", slug: "linen" });
    expect(tag.parent).toBeUndefined();
    const clash = await send(admin, "POST", "wp/v2/tags", { name: "Linen 2", slug: "linen" });
    expect((await body(clash)).code).toBe("duplicate_term_slug");
    const post = await body(await send(admin, "POST", "wp/v2/posts", { title: "Linen season", status: "publish", tags: [tag.id] }));
    const [found] = (await (await get(null, `wp/v2/posts?tags=${tag.id}&_embed=wp:term,author`)).json()) as Json[];
    expect(found!.id).toBe(post.id);
    expect(found!._embedded["wp:term"][1]).toEqual([expect.objectContaining({ id: tag.id, name: "Linen" })]);
    expect(found!._embedded.author[0]).toMatchObject({ id: admin.id, name: expect.any(String) });
    expect(found!._embedded.author[0].email).toBeUndefined();
    expect(((await (await get(null, `wp/v2/tags?post=${post.id}`)).json()) as Json[]).map((t) => t.id)).toEqual([tag.id]);
    expect((await get(null, "wp/v2/tags?per_page=500")).status).toBe(400);
    expect((await get(customer, "wp/v2/tags?context=edit")).status).toBe(403);
  });
});

describe("wp/v2/types and wp/v2/taxonomies", () => {
  it("describe post, page, attachment and product, and the four taxonomies", async () => {
    const types = await body(await get(null, "wp/v2/types"));
    expect(Object.keys(types)).toEqual(expect.arrayContaining(["post", "page", "attachment", "product"]));
    expect(types.post).toMatchObject({ slug: "post", rest_base: "posts", taxonomies: ["category", "post_tag"], hierarchical: false });
    expect(types.post.capabilities).toBeUndefined();
    expect((await body(await get(null, "wp/v2/types/page"))).hierarchical).toBe(true);
    const missing = await get(null, "wp/v2/types/nope");
    expect(missing.status).toBe(404);
    expect((await body(missing)).code).toBe("rest_type_invalid");
    expect((await get(customer, "wp/v2/types?context=edit")).status).toBe(403);
    expect((await body(await get(manager, "wp/v2/types/post?context=edit"))).capabilities.edit_posts).toBe("edit_posts");

    const taxonomies = await body(await get(null, "wp/v2/taxonomies"));
    expect(Object.keys(taxonomies).sort()).toEqual(["category", "post_tag", "product_cat", "product_tag"]);
    expect(Object.keys(await body(await get(null, "wp/v2/taxonomies?type=post"))).sort()).toEqual(["category", "post_tag"]);
    expect((await body(await get(null, "wp/v2/taxonomies/category"))).rest_base).toBe("categories");
    expect((await body(await get(null, "wp/v2/taxonomies/nope"))).code).toBe("rest_taxonomy_invalid");
    expect((await get(null, "wp/v2/taxonomies?context=edit")).status).toBe(401);
  });
});

describe("wp/v2/settings", () => {
  it("is for administrators only (manage_options)", async () => {
    expect((await get(null, "wp/v2/settings")).status).toBe(401);
    expect((await get(customer, "wp/v2/settings")).status).toBe(403);
    expect((await get(manager, "wp/v2/settings")).status).toBe(403);
    expect((await send(manager, "POST", "wp/v2/settings", { title: "Mine" })).status).toBe(403);
    const res = await get(admin, "wp/v2/settings");
    expect(res.status).toBe(200);
    const settings = await body(res);
    expect(settings).toMatchObject({
      title: "Maskerade",
      timezone: "UTC",
      date_format: "F j, Y",
      posts_per_page: 6,
      default_comment_status: "open",
      language: "en_US",
    });
    expect(settings.url).toMatch(/^http/);
    expect(settings.default_category).toBeGreaterThan(0);
  });

  it("a change shows on the storefront at once: the title in the header, posts per blog page", async () => {
    const res = await send(admin, "POST", "wp/v2/settings", { title: "Masks & Ties", description: "Sewn to match", posts_per_page: 50, date_format: "d/m/Y" });
    expect(res.status).toBe(200);
    expect(await body(res)).toMatchObject({ title: "Masks & Ties", description: "Sewn to match", posts_per_page: 50 });
    const home = await (await guest.get("/")).text();
    expect(home).toContain("Masks &amp; Ties");
    expect(home).toContain("Sewn to match");
    const blog = await (await guest.get("/blog/")).text();
    expect((blog.match(/<li><article>/g) ?? []).length).toBe(50);
    expect(blog).toMatch(/<p class="meta">\d{2}\/\d{2}\/\d{4}(<!-- -->)? · /);
    expect((await body(await guest.get("/wp-json/"))).name).toBe("Masks & Ties");
    expect(await auditCount("setting", "site_options")).toBe(1);
    await send(admin, "PUT", "wp/v2/settings", {
      title: "Maskerade",
      description: "Face masks, ties and matching sets",
      posts_per_page: 6,
      date_format: "F j, Y",
    });
  });

  it("refuses bad values naming the setting, and changes nothing", async () => {
    const cases: [Json, string][] = [
      [{ timezone: "Mars/Olympus" }, "timezone"],
      [{ posts_per_page: 0 }, "posts_per_page"],
      [{ email: "not an email" }, "email"],
      [{ start_of_week: 9 }, "start_of_week"],
      [{ default_comment_status: "sometimes" }, "default_comment_status"],
      [{ no_such_setting: 1 }, "no_such_setting"],
      [{ url: "https://elsewhere.example/" }, "url"],
      [{ default_category: 999999 }, "default_category"],
      [{ date_format: "Y\u0000m" }, "date_format"],
    ];
    for (const [input, param] of cases) {
      const res = await send(admin, "POST", "wp/v2/settings", input);
      expect(res.status, param).toBe(400);
      const b = await body(res);
      expect(b.code, param).toBe("rest_invalid_param");
      expect(Object.keys(b.data.params), param).toContain(param);
    }
    expect(await body(await get(admin, "wp/v2/settings"))).toMatchObject({ timezone: "UTC", posts_per_page: 6 });
    // Markup and control characters leave the title, as WordPress's sanitize_text_field does.
    expect((await body(await send(admin, "PATCH", "wp/v2/settings", { title: "<b>Mask\u0000erade</b>" }))).title).toBe("Maskerade");
  });
});

describe("wp/v2/comments", () => {
  it("anyone reads the approved blog comments (not reviews); other statuses and context=edit are for moderators", async () => {
    const res = await get(null, "wp/v2/comments");
    expect(res.status).toBe(200);
    const list = (await res.json()) as Json[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(list.every((c) => c.type === "comment" && c.status === "approved")).toBe(true);
    expect(list[0]).toMatchObject({ content: { rendered: expect.stringMatching(/^<p>/) }, author_url: "" });
    expect(list[0]!.author_email).toBeUndefined();
    expect((await body(await get(null, "wp/v2/comments?status=hold"))).code).toBe("rest_forbidden_param");
    expect((await get(customer, "wp/v2/comments?status=hold")).status).toBe(403);
    expect((await get(null, "wp/v2/comments?context=edit")).status).toBe(401);
    expect((await body(await get(null, "wp/v2/comments?type=review"))).code).toBe("rest_invalid_param");
    expect((await body(await get(null, "wp/v2/comments/999999999"))).code).toBe("rest_comment_invalid_id");
  });

  it("moderators approve a held comment (it shows on the post), reply, trash and delete; guests and customers may not", async () => {
    const [post] = (await (await get(null, "wp/v2/posts?search=Spring Colours")).json()) as Json[];
    const inserted = await shop.services.db.query<{ id: number }>(
      `INSERT INTO comments (type, post_id, author, author_email, content, status) VALUES ('comment', $1, 'Visitor', 'v@example.com', 'Lovely prints!', 'pending') RETURNING id`,
      [post!.id],
    );
    const heldId = inserted[0]!.id;
    expect((await get(null, `wp/v2/comments/${heldId}`)).status).toBe(401);
    const held = (await (await get(manager, "wp/v2/comments?status=hold&context=edit")).json()) as Json[];
    expect(held.find((c) => c.id === heldId)).toMatchObject({ status: "hold", author_email: "v@example.com" });

    expect((await body(await send(null, "POST", `wp/v2/comments/${heldId}`, { status: "approved" }))).code).toBe("rest_cannot_edit");
    expect((await send(customer, "PATCH", `wp/v2/comments/${heldId}`, { status: "approved" })).status).toBe(403);
    expect((await body(await send(manager, "PATCH", `wp/v2/comments/${heldId}`, { status: "maybe" }))).code).toBe("rest_invalid_param");
    const approved = await send(manager, "PATCH", `wp/v2/comments/${heldId}`, { status: "approved" });
    expect((await body(approved)).status).toBe("approved");
    expect(await (await guest.get(`/blog/${post!.slug}/`)).text()).toContain("Lovely prints!");

    expect((await body(await send(null, "POST", "wp/v2/comments", { post: post!.id, content: "hi" }))).code).toBe("rest_comment_login_required");
    expect((await body(await send(customer, "POST", "wp/v2/comments", { post: post!.id, content: "hi" }))).code).toBe("rest_cannot_create");
    expect((await body(await send(manager, "POST", "wp/v2/comments", { content: "hi" }))).code).toBe("rest_missing_callback_param");
    expect((await body(await send(manager, "POST", "wp/v2/comments", { post: post!.id, content: "<b></b>" }))).code).toBe("rest_comment_content_invalid");
    const reply = await send(manager, "POST", "wp/v2/comments", { post: post!.id, parent: heldId, content: "Thank you <script>x</script>!" });
    expect(reply.status).toBe(201);
    const replied = await body(reply);
    expect(replied).toMatchObject({ post: post!.id, parent: heldId, status: "approved", author: manager.id, content: { raw: "Thank you !" } });
    expect(await (await guest.get(`/blog/${post!.slug}/`)).text()).toContain("Thank you !");

    expect((await body(await send(null, "DELETE", `wp/v2/comments/${replied.id}`))).code).toBe("rest_cannot_delete");
    expect((await body(await send(manager, "DELETE", `wp/v2/comments/${replied.id}`))).status).toBe("trash");
    expect((await send(manager, "DELETE", `wp/v2/comments/${replied.id}`)).status).toBe(410);
    expect(await body(await send(manager, "DELETE", `wp/v2/comments/${replied.id}?force=true`))).toMatchObject({ deleted: true, previous: { id: replied.id } });
    expect((await get(manager, `wp/v2/comments/${replied.id}`)).status).toBe(404);
    expect(await auditCount("comment", heldId)).toBe(1);
    expect(await auditCount("comment", replied.id)).toBe(3);
  });
});
