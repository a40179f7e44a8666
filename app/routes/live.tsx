/**
 * /live/: both sports widgets (issue 7). The page is server-rendered with the
 * widgets' loading states; they connect to the hub at /ws after hydration.
 * `?lang=` picks the widgets' language (each falls back to English for one it lacks).
 */
import type { Route } from "./+types/live";
import liveStylesheet from "../components/live/live.css?url";
import { LiveScoresList } from "../components/live/LiveScoresList.tsx";
import { LiveMatchWidget } from "../components/live/LiveMatchWidget.tsx";

export const links: Route.LinksFunction = () => [{ rel: "stylesheet", href: liveStylesheet }];

export const meta: Route.MetaFunction = () => [
  { title: "Live football scores – Maskerade" },
  { name: "description", content: "Live football scores: today's and tomorrow's matches, updated as they happen." },
];

export function loader({ request }: Route.LoaderArgs) {
  const lang = new URL(request.url).searchParams.get("lang");
  return { lang: lang && /^[a-z]{2}$/.test(lang) ? lang : "en" };
}

export default function Live({ loaderData }: Route.ComponentProps) {
  return (
    <div className="live-page">
      <h1 className="section-title">Live football</h1>
      <section aria-labelledby="live-match-heading" className="live-page__match">
        <h2 id="live-match-heading">Match of the moment</h2>
        <LiveMatchWidget lang={loaderData.lang} />
      </section>
      <section aria-labelledby="live-scores-heading" className="live-page__scores">
        <h2 id="live-scores-heading">Scores</h2>
        <LiveScoresList lang={loaderData.lang} />
      </section>
    </div>
  );
}
