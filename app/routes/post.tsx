import type { Route } from "./+types/post";
import { EditLink } from "../components/chrome/EditLink.tsx";
import { mediaUrl } from "../lib/format.ts";
import { pageTitle } from "../lib/listing-params.ts";
import { loader as serverLoader } from "./post.server.ts";
import { ShareButtons } from "../components/share/ShareButtons.tsx";
import { THEME_TEMPLATES } from "../lib/theme-templates.ts";
import { Comments } from "../components/comments/CommentsSection.tsx";

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData
    ? [
        { title: pageTitle(loaderData.post.title) },
        { name: "description", content: loaderData.post.excerpt },
        { tagName: "link", rel: "canonical", href: postUrl(loaderData.origin, loaderData.post.slug) },
      ]
    : [];

const postUrl = (origin: string, slug: string) => `${origin}/blog/${slug}/`;

export default function Post({ loaderData }: Route.ComponentProps) {
  const { post, comments } = loaderData;
  return (
    <article className="post" data-elementor-type="single-post" data-elementor-id={THEME_TEMPLATES.singlePost}>
      <h1 className="page-title">{post.title}</h1>
      <p className="meta">
        {post.date} · {post.author}
      </p>
      <EditLink href={loaderData.editLink} title={post.title} />
      <img src={mediaUrl(post.imageSlug)} alt="" width={720} height={400} />
      {/* Post bodies are staff-written and pass the allow-list sanitiser (core/domain/text/kses.ts) in the loader. */}
      <div className="entry-content" dangerouslySetInnerHTML={{ __html: post.content }} />
      <ShareButtons url={postUrl(loaderData.origin, post.slug)} title={post.title} settings={loaderData.share} />
      {comments ? <Comments data={comments} /> : null}
      <p>
        <a href="/blog/">
          <span className="dir-arrow" aria-hidden="true">
            ←
          </span>{" "}
          Back to the journal
        </a>
      </p>
    </article>
  );
}
