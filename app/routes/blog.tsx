import { data } from "react-router";
import type { Route } from "./+types/blog";
import { listPosts } from "../../core/db/repositories/catalog.ts";
import { formatDate, mediaUrl } from "../lib/format.ts";
import { pageTitle, parsePage } from "../lib/listing-params.ts";

const PER_PAGE = 6;

export async function loader({ context, params }: Route.LoaderArgs) {
  const page = parsePage(params.page);
  if (page === null) throw data(null, { status: 404 });
  const { items, total } = await listPosts(context.services.db, page, PER_PAGE);
  const totalPages = Math.max(1, Math.ceil(total / PER_PAGE));
  if (page > totalPages) throw data(null, { status: 404 });
  return { items, page, totalPages, noMore: context.services.config.shop.noMoreBlogMessage, showComments: context.services.config.shop.blogShowCommentsLabel };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: pageTitle(loaderData && loaderData.page > 1 ? `Journal – Page ${loaderData.page}` : "Journal") }];

export default function Blog({ loaderData }: Route.ComponentProps) {
  const { items, page, totalPages, noMore, showComments } = loaderData;
  return (
    <div className="blog">
      <h1 className="page-title">Journal</h1>
      <ul className="post-cards">
        {items.map((p) => (
          <li key={p.id}>
            <article>
              <a href={`/blog/${p.slug}/`}>
                <img src={mediaUrl(p.imageSlug)} alt="" width={360} height={200} loading="lazy" />
                <h2>{p.title}</h2>
              </a>
              <p className="meta">
                {formatDate(p.publishedAt)} · {p.author}
              </p>
              <p>{p.excerpt}</p>
              <a href={`/blog/${p.slug}/#comments`}>{showComments}</a>
            </article>
          </li>
        ))}
      </ul>
      <nav className="navigation pagination" aria-label="Posts pagination">
        <ul className="page-numbers">
          {Array.from({ length: totalPages }, (_, i) => i + 1).map((n) => (
            <li key={n}>
              {n === page ? (
                <span aria-current="page" className="page-numbers current">
                  {n}
                </span>
              ) : (
                <a className="page-numbers" href={n === 1 ? "/blog/" : `/blog/page/${n}/`}>
                  {n}
                </a>
              )}
            </li>
          ))}
        </ul>
        {page >= totalPages ? <p className="no-more-posts">{noMore}</p> : null}
      </nav>
    </div>
  );
}
