/**
 * The share buttons' twenty networks (docs/contract/storefront.md §9 'Share networks'): plain links built from the
 * page's canonical address and title, no third-party script. `popup` is the window size the network's share page
 * is designed for (null: open as a normal link or handled in the page: e-mail, print). `counter` marks the networks
 * that publish a share count anyone may read; the others never show a number.
 */

export type ShareGroup = "social" | "messaging" | "aggregator" | "read-later" | "other";

export interface ShareNetwork {
  id: string;
  label: string;
  group: ShareGroup;
  /** `{url}` and `{title}` are replaced by the URI-encoded canonical address and title. */
  template: string;
  popup: { width: number; height: number } | null;
  counter: boolean;
}

const W = (width: number, height: number) => ({ width, height });

export const SHARE_NETWORKS: readonly ShareNetwork[] = [
  { id: "facebook", label: "Facebook", group: "social", template: "https://www.facebook.com/sharer/sharer.php?u={url}", popup: W(626, 436), counter: false },
  { id: "x", label: "X", group: "social", template: "https://x.com/intent/post?text={title}&url={url}", popup: W(550, 420), counter: false },
  {
    id: "linkedin",
    label: "LinkedIn",
    group: "social",
    template: "https://www.linkedin.com/sharing/share-offsite/?url={url}",
    popup: W(600, 540),
    counter: false,
  },
  {
    id: "pinterest",
    label: "Pinterest",
    group: "social",
    template: "https://www.pinterest.com/pin/create/button/?url={url}&description={title}",
    popup: W(750, 550),
    counter: true,
  },
  {
    id: "threads",
    label: "Threads",
    group: "social",
    template: "https://www.threads.net/intent/post?text={title}%20{url}",
    popup: W(600, 600),
    counter: false,
  },
  { id: "bluesky", label: "Bluesky", group: "social", template: "https://bsky.app/intent/compose?text={title}%20{url}", popup: W(600, 600), counter: false },
  {
    id: "tumblr",
    label: "Tumblr",
    group: "social",
    template: "https://www.tumblr.com/widgets/share/tool?canonicalUrl={url}&title={title}",
    popup: W(540, 600),
    counter: true,
  },
  { id: "vk", label: "VK", group: "social", template: "https://vk.com/share.php?url={url}&title={title}", popup: W(650, 570), counter: true },
  { id: "odnoklassniki", label: "OK", group: "social", template: "https://connect.ok.ru/offer?url={url}&title={title}", popup: W(600, 500), counter: true },
  { id: "xing", label: "XING", group: "social", template: "https://www.xing.com/spi/shares/new?url={url}", popup: W(600, 500), counter: false },
  { id: "whatsapp", label: "WhatsApp", group: "messaging", template: "https://api.whatsapp.com/send?text={title}%20{url}", popup: null, counter: false },
  { id: "telegram", label: "Telegram", group: "messaging", template: "https://t.me/share/url?url={url}&text={title}", popup: W(600, 500), counter: false },
  { id: "skype", label: "Skype", group: "messaging", template: "https://web.skype.com/share?url={url}&text={title}", popup: W(600, 500), counter: false },
  { id: "line", label: "LINE", group: "messaging", template: "https://social-plugins.line.me/lineit/share?url={url}", popup: W(600, 550), counter: false },
  { id: "reddit", label: "Reddit", group: "aggregator", template: "https://www.reddit.com/submit?url={url}&title={title}", popup: W(800, 600), counter: false },
  { id: "digg", label: "Digg", group: "aggregator", template: "https://digg.com/submit?url={url}&title={title}", popup: W(800, 600), counter: false },
  { id: "mix", label: "Mix", group: "aggregator", template: "https://mix.com/add?url={url}", popup: W(800, 600), counter: false },
  {
    id: "instapaper",
    label: "Instapaper",
    group: "read-later",
    template: "https://www.instapaper.com/edit?url={url}&title={title}",
    popup: W(600, 500),
    counter: false,
  },
  { id: "email", label: "E-mail", group: "other", template: "mailto:?subject={title}&body={url}", popup: null, counter: false },
  { id: "print", label: "Print", group: "other", template: "", popup: null, counter: false },
];

const BY_ID = new Map(SHARE_NETWORKS.map((n) => [n.id, n]));

export function shareNetwork(id: string): ShareNetwork | undefined {
  return BY_ID.get(id);
}

/** The share address for a network ('' for print, which the page handles). */
export function shareHref(network: ShareNetwork, page: { url: string; title: string }): string {
  return network.template.replace(/\{url\}/g, encodeURIComponent(page.url)).replace(/\{title\}/g, encodeURIComponent(page.title));
}

/** Settings check: every listed id must be a network; counters only where the network publishes a count. */
export function validateShareSettings(settings: { networks: readonly string[]; counters: readonly string[] }): string[] {
  const errors: string[] = [];
  for (const id of settings.networks) if (!BY_ID.has(id)) errors.push(`share.networks: unknown network "${id}"`);
  for (const id of settings.counters) {
    const n = BY_ID.get(id);
    if (!n) errors.push(`share.counters: unknown network "${id}"`);
    else if (!n.counter) errors.push(`share.counters: ${n.label} publishes no share count`);
  }
  return errors;
}

export { COUNT_ENDPOINTS } from "./count-endpoints.ts";

/** The count in a count endpoint's answer, or null when the answer is not the expected shape (then no number is shown). */
export function parseShareCount(network: string, body: string): number | null {
  const patterns: Record<string, RegExp> = {
    pinterest: /"count"\s*:\s*(\d{1,12})/,
    tumblr: /"note_count"\s*:\s*(\d{1,12})/,
    vk: /VK\.Share\.count\(\s*\d+\s*,\s*(\d{1,12})\s*\)/,
    odnoklassniki: /ODKL\.updateCount\(\s*'[^']*'\s*,\s*'(\d{1,12})'\s*\)/,
  };
  const m = patterns[network]?.exec(body);
  if (!m) return null;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : null;
}
