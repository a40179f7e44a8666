/** Blog posts as the REST API lists them (GET /wp-json/wp/v2/posts). */
import type { Queryable } from "../client.ts";
import { raw, sql } from "../kysely.ts";

export interface RestPost {
  id: number;
  slug: string;
  title: string;
  excerpt: string;
  publishedAt: Date;
}

/**
 * One page of published posts, newest first, optionally matching `search` in the title or excerpt (the text is
 * matched literally: `%`, `_` and `\` are escaped), with the number of all matching posts.
 */
export async function searchPosts(
  db: Queryable,
  q: { page: number; perPage: number; search?: string | undefined },
): Promise<{ items: RestPost[]; total: number }> {
  const pattern = q.search ? `%${q.search.replace(/[%_\\]/g, "\\$&")}%` : null;
  const published = () => {
    let query = sql(db).selectFrom("posts").where("status", "=", "publish");
    if (pattern !== null) query = query.where((eb) => eb.or([eb("title", "ilike", pattern), eb("excerpt", "ilike", pattern)]));
    return query;
  };
  const rows = await published()
    .select(["id", "slug", "title", "excerpt", "published_at", raw<number>`count(*) OVER ()::int`.as("total")])
    .orderBy("published_at", "desc")
    .orderBy("id", "desc")
    .limit(q.perPage)
    .offset((q.page - 1) * q.perPage)
    .execute();
  // The window count rides on the rows; a page past the end has none, so count on its own.
  const total = rows.length
    ? rows[0]!.total
    : ((
        await published()
          .select(raw<number>`count(*)::int`.as("total"))
          .executeTakeFirst()
      )?.total ?? 0);
  return { total, items: rows.map((r) => ({ id: r.id, slug: r.slug, title: r.title, excerpt: r.excerpt, publishedAt: new Date(r.published_at) })) };
}
