/** Endpoints that belong to the foundation: the REST nonce refresh and the blog posts collection. */
import { text, json } from "../http/dispatch.ts";
import { REST_NONCE_ACTION, restError } from "../http/rest.ts";
import { z } from "zod";
import type { Endpoints, Feature } from "./feature.ts";
import { searchPosts } from "../../core/db/repositories/posts.ts";
import { normalizeSearch } from "../../core/domain/catalog/listing-query.ts";

const postsQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  search: z.string().max(200).optional(),
});

export const foundationFeature: Feature = { name: "foundation", endpoints: registerFoundationEndpoints };

function registerFoundationEndpoints({ adminAjax, rest }: Endpoints): void {
  // api-fetch refreshes a stale REST nonce here and needs the raw nonce as text.
  // WordPress answers only signed-in users; we answer guests too (docs/contract/wire.md §2.4).
  adminAjax.register("rest-nonce", async ({ req }) => {
    await req.shop.session();
    return text(req.shop.nonce(REST_NONCE_ACTION), 200);
  });

  rest.register("GET", "wp/v2/posts", async ({ query, services, req }) => {
    const parsed = postsQuery.safeParse(query);
    if (!parsed.success) {
      const params = Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
      return restError("rest_invalid_param", `Invalid parameter(s): ${Object.keys(params).join(", ")}`, 400, { params });
    }
    const { page, per_page, search } = parsed.data;
    // The listing's search rule: control characters (PostgreSQL refuses NUL) and runs of white space go.
    const { items, total } = await searchPosts(services.db, { page, perPage: per_page, search: normalizeSearch(search) ?? undefined });
    const totalPages = Math.max(1, Math.ceil(total / per_page));
    if (page > totalPages && total > 0) {
      return restError("rest_post_invalid_page_number", "The page number requested is larger than the number of pages available.", 400);
    }
    const origin = `${req.protocol}://${req.get("host")}`;
    const pageUrl = (n: number) => {
      const url = new URL(`${origin}/wp-json/wp/v2/posts`);
      for (const [k, v] of Object.entries(query)) if (k !== "page" && typeof v === "string") url.searchParams.set(k, v);
      url.searchParams.set("page", String(n));
      return url.toString();
    };
    const links: string[] = [];
    if (page > 1) links.push(`<${pageUrl(page - 1)}>; rel="prev"`);
    if (page < totalPages) links.push(`<${pageUrl(page + 1)}>; rel="next"`);
    const headers: Record<string, string> = { "X-WP-Total": String(total), "X-WP-TotalPages": String(totalPages) };
    if (links.length) headers.Link = links.join(", ");
    return json(
      items.map((r) => ({
        id: r.id,
        slug: r.slug,
        date: r.publishedAt.toISOString(),
        link: `${origin}/blog/${r.slug}/`,
        title: { rendered: r.title },
        excerpt: { rendered: r.excerpt },
      })),
      200,
      headers,
    );
  });
}
