import type { Route } from "./+types/blog";
import { mediaUrl } from "../lib/format.ts";
import { pageTitle } from "../lib/listing-params.ts";
import { loader as serverLoader } from "./blog.server.ts";

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: pageTitle(loaderData && loaderData.page > 1 ? `Journal – Page ${loaderData.page}` : "Journal") },
];

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
                {p.date} · {p.author}
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
