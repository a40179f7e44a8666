import type { Route } from "./+types/home";
import { ProductGrid } from "../components/product/ProductCard.tsx";
import { mediaUrl } from "../lib/format.ts";
import liveStylesheet from "../components/live/live.css?url";
import { LiveMatchWidget } from "../components/live/LiveMatchWidget.tsx";
import { LiveScoresList } from "../components/live/LiveScoresList.tsx";
import { ListingPage } from "../components/listing/ListingPage.tsx";
import { pageTitle } from "../lib/listing-params.ts";
import { loader as serverLoader } from "./home.server.ts";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: liveStylesheet }];

export const meta: Route.MetaFunction = ({ loaderData }) =>
  loaderData?.kind === "search"
    ? [{ title: pageTitle(loaderData.title) }, { name: "robots", content: "noindex, follow" }]
    : [
        { title: "Maskerade – Face masks, ties and matching sets" },
        {
          name: "description",
          content: "Washable face masks, silk ties and matching mask and tie sets. 6 masks for $15, 12 masks for $24, free shipping on all mask purchases.",
        },
      ];

export async function loader(args: Route.LoaderArgs) {
  return serverLoader(args);
}

/** Plain /?s=…: the posts that match, under the products (docs/contract/storefront-search.md). */
function PostResults({ posts }: { posts: { id: number; slug: string; title: string; excerpt: string; date: string }[] }) {
  return (
    <section aria-labelledby="post-results-heading" className="search-posts">
      <h2 id="post-results-heading" className="section-title">
        Posts
      </h2>
      {posts.length ? (
        <ul className="post-cards">
          {posts.map((p) => (
            <li key={p.id}>
              <a href={`/blog/${p.slug}/`}>
                <h3>{p.title}</h3>
              </a>
              <p className="meta">{p.date}</p>
              <p>{p.excerpt}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p>No posts were found.</p>
      )}
    </section>
  );
}

export default function Home({ loaderData }: Route.ComponentProps) {
  if (loaderData.kind === "search")
    return (
      <>
        <ListingPage data={loaderData} />
        {loaderData.posts ? <PostResults posts={loaderData.posts} /> : null}
      </>
    );
  const { featured, categories, posts } = loaderData;
  return (
    <>
      <section className="hero">
        <div>
          <p className="hero__eyebrow">Mix and match any masks</p>
          <h1>6 masks for $15. 12 for $24.</h1>
          <p>Free shipping on all mask purchases. Ties and matching sets cut from the same cloth.</p>
          <p className="hero__actions">
            <a className="button button--primary" href="/product-category/face-masks/">
              Shop face masks
            </a>
            <a className="button" href="/product-category/mask-and-tie-sets/">
              Mask and tie sets
            </a>
          </p>
        </div>
        <img src={mediaUrl("classic-mask-and-tie-set-front")} alt="" width={420} height={420} />
      </section>

      <section aria-labelledby="cats-heading">
        <h2 id="cats-heading" className="section-title">
          Shop by category
        </h2>
        <ul className="category-tiles">
          {categories.map((c) => (
            <li key={c.slug}>
              <a href={`/product-category/${c.slug}/`}>
                <span className="category-tiles__name">{c.name}</span>
                <span className="category-tiles__count">
                  {c.count} {c.count === 1 ? "product" : "products"}
                </span>
              </a>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="featured-heading" className="woocommerce">
        <h2 id="featured-heading" className="section-title">
          Bestsellers
        </h2>
        <ProductGrid products={featured} />
      </section>

      <section aria-labelledby="home-live-heading" className="home-live">
        <h2 id="home-live-heading" className="section-title">
          Live football
        </h2>
        <div className="home-live__widgets">
          <LiveMatchWidget />
          <LiveScoresList />
        </div>
        <p className="home-live__more">
          <a href="/live/">All live scores</a>
        </p>
      </section>

      <section aria-labelledby="journal-heading">
        <h2 id="journal-heading" className="section-title">
          From the journal
        </h2>
        <ul className="post-cards">
          {posts.map((p) => (
            <li key={p.id}>
              <a href={`/blog/${p.slug}/`}>
                <img src={mediaUrl(p.imageSlug)} alt="" width={360} height={200} loading="lazy" />
                <h3>{p.title}</h3>
              </a>
              <p className="meta">{p.date}</p>
              <p>{p.excerpt}</p>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
