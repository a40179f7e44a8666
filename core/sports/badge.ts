/**
 * Generated club and league badges: small SVGs the server serves at
 * /media/teams/{slug}.svg and /media/leagues/{slug}.svg. Pure: the same slug
 * always draws the same badge, so they can be cached forever.
 */
import { hashSeed } from "./prng.ts";

const PALETTE = ["#c8102e", "#003399", "#006a4e", "#f4b400", "#5b2c83", "#111111", "#0b7fab", "#e35205", "#7a0019", "#2e7d32", "#1a237e", "#ad1457"] as const;

function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;" })[c]!);
}

/** Up to three initials from the significant words ("FC", "AS" … are skipped when others exist). */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter(Boolean);
  const significant = words.filter((w) => !/^(fc|ac|as|cd|cf|ud|us|sv|sc|vfb|tsv|afc)$/i.test(w));
  const chosen = (significant.length ? significant : words).slice(0, 3);
  return chosen.map((w) => w[0]!.toUpperCase()).join("") || "?";
}

function colours(slug: string): [string, string] {
  const h = hashSeed("badge", slug);
  const a = PALETTE[h % PALETTE.length]!;
  let b: string = PALETTE[(h >>> 8) % PALETTE.length]!;
  if (b === a) b = "#ffffff";
  return [a, b];
}

/** A shield split in two club colours with the initials on top. 40×40 view box, scales to 20×20. */
export function teamBadgeSvg(team: { slug: string; name: string }): string {
  const [a, b] = colours(team.slug);
  const text = escapeXml(initials(team.name));
  const size = text.length > 2 ? 11 : 14;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40" role="img" aria-label="${escapeXml(team.name)}">` +
    `<path d="M20 2 L36 7 V19 C36 29 29 35 20 38 C11 35 4 29 4 19 V7 Z" fill="${a}" stroke="#222" stroke-width="1.5"/>` +
    `<path d="M20 2 L36 7 V19 C36 29 29 35 20 38 Z" fill="${b}" opacity="0.85"/>` +
    `<text x="20" y="24" font-family="Arial,Helvetica,sans-serif" font-size="${size}" font-weight="700" text-anchor="middle" fill="#fff" stroke="#000" stroke-width="0.6" paint-order="stroke">${text}</text>` +
    `</svg>`
  );
}

/** A round league emblem. */
export function leagueBadgeSvg(league: { slug: string; name: string }): string {
  const [a, b] = colours(`league:${league.slug}`);
  const text = escapeXml(initials(league.name));
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40" role="img" aria-label="${escapeXml(league.name)}">` +
    `<circle cx="20" cy="20" r="18" fill="${a}" stroke="${b}" stroke-width="3"/>` +
    `<text x="20" y="25" font-family="Arial,Helvetica,sans-serif" font-size="13" font-weight="700" text-anchor="middle" fill="#fff">${text}</text>` +
    `</svg>`
  );
}
