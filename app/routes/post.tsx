import { data } from "react-router";
import type { Route } from "./+types/post";
import { findPost } from "../../core/db/repositories/catalog.ts";
import { formatDate, mediaUrl } from "../lib/format.ts";
import { pageTitle } from "../lib/listing-params.ts";

export async function loader({ context, params }: Route.LoaderArgs) {
  const post = await findPost(context.services.db, params.slug);
  if (!post) throw data(null, { status: 404 });
  return { post };
}

export const meta: Route.MetaFunction = ({ loaderData }) => (loaderData ? [{ title: pageTitle(loaderData.post.title) }, { name: "description", content: loaderData.post.excerpt }] : []);

export default function Post({ loaderData }: Route.ComponentProps) {
  const { post } = loaderData;
  return (
    <article className="post">
      <h1 className="page-title">{post.title}</h1>
      <p className="meta">
        {formatDate(post.publishedAt)} · {post.author}
      </p>
      <img src={mediaUrl(post.imageSlug)} alt="" width={720} height={400} />
      {/* Post bodies are written by the shop's own staff (seeded or admin-entered), never by visitors. */}
      <div className="entry-content" dangerouslySetInnerHTML={{ __html: post.content }} />
      <p>
        <a href="/blog/">← Back to the journal</a>
      </p>
    </article>
  );
}
