/** Generated product and blog images, stored in the database. */
import type { Queryable } from "../client.ts";
import { sql } from "../kysely.ts";

export async function findMedia(db: Queryable, slug: string): Promise<{ body: string; mime: string } | null> {
  const row = await sql(db).selectFrom("media").select(["body", "mime"]).where("slug", "=", slug).executeTakeFirst();
  return row ?? null;
}
