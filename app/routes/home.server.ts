/** The server half of the home route: its loader (and action), everything that reaches the database; the route module renders. */
import { featuredProducts, listCategories, listPosts } from "../../core/db/repositories/catalog.ts";
import type { Route } from "./+types/home";

export async function loader({ context }: Route.LoaderArgs) {
  const db = context.services.db;
  const [featured, categories, posts] = await Promise.all([featuredProducts(db, 8), listCategories(db), listPosts(db, 1, 3)]);
  return { featured, categories, posts: posts.items };
}
