/**
 * What the rich-text editor would drop from an HTML text (decision 0049): the HTML is loaded into the editor's own
 * schema and written out again (TipTap's generateJSON / generateHTML, the same round trip as opening and saving), and
 * the two are compared after normalising — `<b>` is `<strong>`, `<i>` `<em>`, whitespace and attribute order do not
 * count, and what the editor adds (a paragraph around loose text, a link's `rel`) is no loss. What the input has and
 * the output lacks — elements, attributes, comments, text — is named for the owner ("images", "tables", "classes").
 * Runs in the browser only (it parses with the DOM), inside the editor's lazy chunk.
 */
import { generateHTML, generateJSON, type Extensions } from "@tiptap/react";

const SAME_AS: Record<string, string> = { b: "strong", i: "em", strike: "s", del: "s" };
const TAG_NAMES: Record<string, string> = {
  img: "images",
  picture: "images",
  figure: "figures",
  figcaption: "figures",
  table: "tables",
  thead: "tables",
  tbody: "tables",
  tfoot: "tables",
  tr: "tables",
  td: "tables",
  th: "tables",
  caption: "tables",
  div: "div blocks",
  span: "spans",
  h1: "level 1 headings",
  h5: "level 5 headings",
  h6: "level 6 headings",
  pre: "preformatted text",
  code: "code",
  iframe: "embeds",
  video: "videos",
  audio: "audio",
};
const ATTRIBUTE_NAMES: Record<string, string> = { class: "classes", style: "styles", id: "ids", alt: "alt texts", title: "titles" };

interface Inventory {
  items: Map<string, number>;
  text: string;
}

function inventory(html: string): Inventory {
  const body = new DOMParser().parseFromString(`<body>${html}</body>`, "text/html").body;
  const items = new Map<string, number>();
  const add = (key: string) => items.set(key, (items.get(key) ?? 0) + 1);
  const walker = body.ownerDocument.createTreeWalker(body, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_COMMENT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.nodeType === Node.COMMENT_NODE) {
      add("comment");
      continue;
    }
    const element = node as Element;
    const tag = element.localName;
    const same = SAME_AS[tag] ?? tag;
    add(`tag ${same}`);
    for (const attribute of Array.from(element.attributes)) add(`attr ${attribute.name} ${same} ${attribute.value.trim()}`);
  }
  return { items, text: (body.textContent ?? "").replace(/\s+/g, "") };
}

/** The editor's HTML for `html`: what opening it in the editor and saving would store. */
export function roundTrip(html: string, extensions: Extensions): string {
  return generateHTML(generateJSON(html, extensions), extensions);
}

/** What the editor would drop from `html`, named for the owner ("images", "tables", "classes"); empty when nothing. */
export function lostMarkup(html: string, extensions: Extensions): string[] {
  if (!html.trim()) return [];
  const before = inventory(html);
  const after = inventory(roundTrip(html, extensions));
  const dropped = [...before.items].filter(([key, count]) => (after.items.get(key) ?? 0) < count).map(([key]) => key.split(" "));
  // An element the editor drops takes its attributes with it: name the element only.
  const droppedTags = new Set(dropped.filter(([kind]) => kind === "tag").map(([, name]) => name));
  const lost = new Set<string>();
  for (const [kind, name, tag] of dropped) {
    if (kind === "comment") lost.add("HTML comments (such as WordPress block markers)");
    else if (kind === "tag") lost.add(TAG_NAMES[name!] ?? `<${name}> elements`);
    else if (!droppedTags.has(tag!)) lost.add(ATTRIBUTE_NAMES[name!] ?? `${name} attributes`);
  }
  if (before.text !== after.text) lost.add("some text");
  return [...lost];
}

/** "images, tables and classes". */
export function listOf(names: string[]): string {
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`;
}
