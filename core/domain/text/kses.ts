/**
 * What staff may store as a post's HTML, as WordPress's `wp_kses_post` allows it (docs/contract/rest/content.md
 * 'Sanitising'): an allow-list of tags and attributes, URLs only with safe schemes, no script, style element or event
 * handler, tags balanced so a body cannot close the page's own elements. The storefront prints post bodies as HTML,
 * so this runs on every write and again when a post is rendered. Pure.
 */
import { escapeHtml } from "./html.ts";

const VOID = new Set(["br", "hr", "img", "col", "wbr"]);
const ALLOWED_TAGS = new Set([
  ..."a abbr address article aside b bdi bdo blockquote br caption cite code col colgroup dd del details dfn div dl dt em figcaption figure footer".split(" "),
  ..."h1 h2 h3 h4 h5 h6 header hr i img ins kbd li main mark nav ol p pre q s section small span strong sub summary sup table tbody td tfoot th".split(" "),
  ..."thead time tr u ul wbr".split(" "),
]);
/** Elements whose text is dropped with them (WordPress keeps it as text; a script's source is of no use to a reader). */
const DROP_CONTENT = new Set(["script", "style", "template", "noscript", "iframe", "object", "textarea", "title", "xmp", "noembed", "noframes"]);
// WordPress's global attributes (_wp_add_global_attributes), `hidden` included: link actions toggle hidden panels.
const GLOBAL_ATTRS = new Set(["class", "id", "title", "lang", "dir", "role", "style", "hidden"]);
const TAG_ATTRS: Record<string, string[]> = {
  a: ["href", "rel", "target", "name", "hreflang"],
  img: ["src", "alt", "width", "height", "srcset", "sizes", "loading", "decoding"],
  td: ["colspan", "rowspan", "headers"],
  th: ["colspan", "rowspan", "headers", "scope", "abbr"],
  ol: ["start", "reversed", "type"],
  li: ["value"],
  time: ["datetime"],
  blockquote: ["cite"],
  q: ["cite"],
  del: ["cite", "datetime"],
  ins: ["cite", "datetime"],
  col: ["span"],
  colgroup: ["span"],
  details: ["open"],
};
const URL_ATTRS = new Set(["href", "src", "cite"]);
const SAFE_SCHEMES = new Set(["http", "https", "mailto", "tel"]);

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0", colon: ":", tab: "\t", newline: "\n" };

/** Decodes character references the way a browser would before reading an attribute's value. */
function decodeEntities(value: string): string {
  return value.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);?/gi, (whole, ref: string) => {
    if (ref[0] === "#") {
      const code = ref[1] === "x" || ref[1] === "X" ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : "";
    }
    return NAMED[ref.toLowerCase()] ?? whole;
  });
}

/** A URL a reader's browser may follow: relative, or with an allowed scheme (no javascript:, data:, vbscript:). */
function safeUrl(value: string): boolean {
  // Browsers ignore control characters and white space inside a scheme ("java\tscript:").
  const compact = value.replace(/[\p{Cc}\s]/gu, "");
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(compact);
  return !scheme || SAFE_SCHEMES.has(scheme[1]!.toLowerCase());
}

/** Inline CSS without anything that loads or runs (url(), expression(), imports, escapes). */
function safeStyle(value: string): boolean {
  return /^[a-z0-9\s:;#%.,()\-_"'!/]*$/i.test(value) && !/url\s*\(|expression|javascript|@import|\/\*|behavior/i.test(value);
}

function sanitizeAttributes(tag: string, source: string): string {
  const allowed = TAG_ATTRS[tag] ?? [];
  const out: string[] = [];
  const seen = new Set<string>();
  for (const m of source.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = m[1]!.toLowerCase();
    if (seen.has(name)) continue;
    const ok = GLOBAL_ATTRS.has(name) || allowed.includes(name) || /^(aria|data)-[a-z0-9_.-]+$/.test(name);
    if (!ok) continue;
    const value = decodeEntities(m[2] ?? m[3] ?? m[4] ?? "");
    if (URL_ATTRS.has(name) && !safeUrl(value)) continue;
    if (name === "srcset" && !value.split(",").every((c) => safeUrl(c.trim().split(/\s+/)[0] ?? ""))) continue;
    if (name === "style" && !safeStyle(value)) continue;
    seen.add(name);
    out.push(` ${name}="${escapeHtml(value)}"`);
  }
  // A link that opens a new window must not hand the opener to the target (WordPress adds the same rel).
  if (tag === "a" && seen.has("target") && !seen.has("rel")) out.push(' rel="noopener"');
  return out.join("");
}

/** The allowed HTML of `html`: unknown tags removed (their text kept), dangerous ones with their content, tags balanced. */
export function sanitizePostHtml(html: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let dropUntil: string | null = null;
  const token = /<!--[\s\S]*?(?:-->|$)|<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|<[!?/][^>]*>?/g;
  const source = html.replaceAll("\0", "");
  let last = 0;
  const text = (s: string) => {
    if (dropUntil === null && s) out.push(s.replace(/</g, "&lt;").replace(/>/g, "&gt;"));
  };
  for (const m of source.matchAll(token)) {
    text(source.slice(last, m.index));
    last = m.index + m[0].length;
    const name = m[2]?.toLowerCase();
    if (!name) continue; // comments, doctypes, processing instructions and broken tags go
    const closing = m[1] === "/";
    if (dropUntil !== null) {
      if (closing && name === dropUntil) dropUntil = null;
      continue;
    }
    if (DROP_CONTENT.has(name)) {
      if (!closing) dropUntil = name;
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    if (closing) {
      const at = open.lastIndexOf(name);
      if (at === -1) continue; // a stray closing tag would close the page's own element
      while (open.length > at) out.push(`</${open.pop()}>`);
      continue;
    }
    out.push(`<${name}${sanitizeAttributes(name, m[3] ?? "")}>`);
    if (!VOID.has(name)) open.push(name);
  }
  text(source.slice(last));
  while (open.length) out.push(`</${open.pop()}>`);
  return out.join("");
}

/**
 * WordPress's wpautop, the part a plain text needs: blank lines make paragraphs, single newlines breaks. Text only:
 * it does not look for block elements, so callers run it on text without tags (see `richTextHtml`).
 */
export function autop(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${p.replace(/\n/g, "<br />\n")}</p>\n`)
    .join("");
}

/**
 * A stored rich text (a product's description, WooCommerce's HTML) as the storefront prints it: HTML as
 * `sanitizePostHtml` allows it; a text without any tag (the demo's plain descriptions) as paragraphs first (`autop`).
 */
export function richTextHtml(value: string): string {
  return sanitizePostHtml(/<[a-z!/?]/i.test(value) ? value : autop(value));
}

/** Text without any markup (titles, excerpts, term names): tags removed, entities decoded, white space collapsed. */
export function plainText(value: string): string {
  return decodeEntities(
    value
      .replace(/<(script|style)[\s\S]*?<\/\1\s*>/gi, "")
      .replace(/<[^>]*>?/g, "")
      .replaceAll("\0", ""),
  )
    .replace(/\p{Cc}/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/** WordPress's sanitize_title: a slug of lowercase letters, digits and hyphens ("" when nothing is left). */
export function slugify(value: string): string {
  return plainText(value)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9\s_-]/g, "")
    .replace(/[\s_-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 190);
}
