/** What the product CSV import looks up that no REST route answers (docs/decisions/0039-product-csv.md). */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

/** The attachment ids of these slugs (an exported image's address names its attachment: `/media/{slug}.svg`). */
export async function mediaIdsBySlug(db: Queryable, slugs: string[]): Promise<Map<string, number>> {
  if (!slugs.length) return new Map();
  const rows = await sql(db).selectFrom("media").select(["id", "slug"]).where("slug", "in", slugs).execute();
  return new Map(rows.map((r) => [r.slug, r.id]));
}
