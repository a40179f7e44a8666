/**
 * Live scores (docs/contract/admin.md 'Live scores'): the matches the live hub serves (`GET shop/v1/live/matches`:
 * score, minute, stage) and who is watching (`GET shop/v1/live/viewers`: this process's hub, per channel), read again
 * every 5 seconds while the tab is visible (a switch stops it). A polite live region announces a change of score or
 * stage only, once, never the ticking minute or the viewer count.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { Button, Notice, ToggleControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./content-screens.css";
import { getWithHeaders, type RestError } from "./api.ts";

const REFRESH_MS = 5000;

interface Side {
  name: string;
  abbr: string;
  score: number | null;
}
interface LiveMatch {
  slug: string;
  stage: string;
  live: boolean;
  match_time: number | string | null;
  kickoff_gmt: string;
  league: { slug: string; name: string; country: string };
  home: Side;
  away: Side;
}
interface Viewers {
  viewers: number;
  connections: number;
  channels: { channel: string; viewers: number }[];
}

const STAGE_NAMES: Record<string, string> = {
  plan: "Not started",
  live: "Live",
  halftime: "Half-time",
  pause: "Paused",
  overtime: "Extra time",
  extra_time_halftime: "Extra time, half-time",
  penalties: "Penalties",
  break_time: "Break",
  finished: "Finished",
  finished_overtime: "Finished after extra time",
  finished_penalty: "Finished after penalties",
  finished_technical_defeat: "Finished (technical defeat)",
  cancelled: "Cancelled",
  postponed: "Postponed",
  results_only: "Result only",
};
const stageName = (s: string) => STAGE_NAMES[s] ?? s.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
const score = (n: number | null) => (n === null ? "–" : String(n));
const scoreLine = (m: LiveMatch) => `${m.home.name} ${score(m.home.score)}–${score(m.away.score)} ${m.away.name}`;
const minute = (m: LiveMatch) => (m.match_time === null || m.match_time === "" ? "–" : `${m.match_time}′`);
const CHANNEL_NAMES: Record<string, string> = { football: "Scores list and match widget", footballDetail: "Match details" };

/** What changed between two reads that a listener wants to hear: a score or a stage, not the minute. */
function stateChanges(before: readonly LiveMatch[], after: readonly LiveMatch[]): string[] {
  const old = new Map(before.map((m) => [m.slug, m]));
  const out: string[] = [];
  for (const m of after) {
    const o = old.get(m.slug);
    if (!o) continue;
    if (o.home.score !== m.home.score || o.away.score !== m.away.score) out.push(`${scoreLine(m)}.`);
    else if (o.stage !== m.stage) out.push(`${m.home.name} against ${m.away.name}: ${stageName(m.stage)}.`);
  }
  return out;
}

export default function LiveScreen() {
  const [matches, setMatches] = useState<LiveMatch[] | null>(null);
  const [viewers, setViewers] = useState<Viewers | null>(null);
  const [error, setError] = useState<RestError | null>(null);
  const [auto, setAuto] = useState(true);
  const [updatedAt, setUpdatedAt] = useState<string>("");
  const [announcement, setAnnouncement] = useState("");
  const last = useRef<LiveMatch[] | null>(null);

  const read = useCallback(async () => {
    try {
      const [m, v] = await Promise.all([getWithHeaders<LiveMatch[]>("/shop/v1/live/matches"), getWithHeaders<Viewers>("/shop/v1/live/viewers")]);
      if (last.current) {
        const changes = stateChanges(last.current, m.body);
        if (changes.length) setAnnouncement(changes.slice(0, 3).join(" "));
      }
      last.current = m.body;
      setMatches(m.body);
      setViewers(v.body);
      setError(null);
      setUpdatedAt(new Date().toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" }));
    } catch (e) {
      setError(e as RestError);
    }
  }, []);

  useEffect(() => {
    void read();
  }, [read]);
  useEffect(() => {
    if (!auto) return;
    const timer = window.setInterval(() => {
      if (!document.hidden) void read();
    }, REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [auto, read]);

  return (
    <div className="admin-live">
      {/* Only changes of score or stage, politely; the table itself is not live. */}
      <div className="screen-reader-text" role="status" aria-live="polite" aria-atomic="true">
        {announcement}
      </div>
      <div className="admin-live-controls">
        <ToggleControl __nextHasNoMarginBottom label="Refresh every 5 seconds" checked={auto} onChange={setAuto} />
        <Button variant="secondary" __next40pxDefaultSize onClick={() => void read()}>
          Refresh now
        </Button>
        {updatedAt ? <span className="admin-live-updated">Updated {updatedAt}</span> : null}
      </div>
      {error ? (
        <Notice status="error" isDismissible={false}>
          {error.message}
        </Notice>
      ) : null}
      <section aria-labelledby="live-viewers-heading" className="admin-live-viewers">
        <h2 id="live-viewers-heading">Viewers now</h2>
        {viewers ? (
          <dl className="admin-figures">
            <div className="admin-figure">
              <dt>Watching live scores</dt>
              <dd>
                <span className="admin-figure-value" data-testid="live-viewers">
                  {viewers.viewers}
                </span>
              </dd>
            </div>
            {viewers.channels.map((c) => (
              <div className="admin-figure" key={c.channel}>
                <dt>
                  {CHANNEL_NAMES[c.channel] ?? c.channel} (<code>{c.channel}</code>)
                </dt>
                <dd>
                  <span className="admin-figure-value">{c.viewers}</span>
                </dd>
              </div>
            ))}
            <div className="admin-figure">
              <dt>Connections to the hub</dt>
              <dd>
                <span className="admin-figure-value">{viewers.connections}</span>
              </dd>
            </div>
          </dl>
        ) : (
          <p>Loading…</p>
        )}
        <p className="admin-live-note">Browsers connected to this server process. The widgets do not tell the hub which match they show.</p>
      </section>
      <section aria-labelledby="live-matches-heading">
        <h2 id="live-matches-heading">Matches</h2>
        {matches === null ? (
          <p role="status">Loading matches…</p>
        ) : matches.length === 0 ? (
          <p>The hub knows no match live, today or tomorrow.</p>
        ) : (
          <table className="admin-table admin-live-table">
            <caption className="screen-reader-text">Live, today&apos;s and tomorrow&apos;s matches, by kick-off</caption>
            <thead>
              <tr>
                <th scope="col">Kick-off (UTC)</th>
                <th scope="col">Match</th>
                <th scope="col">Score</th>
                <th scope="col">Minute</th>
                <th scope="col">Status</th>
                <th scope="col">League</th>
              </tr>
            </thead>
            <tbody>
              {matches.map((m) => (
                <tr key={m.slug} className={m.live ? "is-live" : undefined}>
                  <td data-label="Kick-off (UTC)">{m.kickoff_gmt.replace("T", " ").slice(0, 16)}</td>
                  <th scope="row" data-label="Match">
                    {m.home.name} – {m.away.name}
                  </th>
                  <td data-label="Score">{m.home.score === null && m.away.score === null ? "–" : `${score(m.home.score)}–${score(m.away.score)}`}</td>
                  <td data-label="Minute">{minute(m)}</td>
                  <td data-label="Status">{stageName(m.stage)}</td>
                  <td data-label="League">
                    {m.league.name}, {m.league.country}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}
