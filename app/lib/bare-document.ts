/**
 * A route whose `handle` is BARE_DOCUMENT renders in a bare document (app/root.tsx): its own markup only, without
 * the storefront's header, footer, cart, popups, tracking or scripts. wp-login.php and /wp-admin/ are such pages:
 * plain server-rendered forms and links that need no JavaScript, as WordPress's own are.
 */
export const BARE_DOCUMENT = { document: "bare" } as const;

export function isBareDocument(matches: readonly { handle?: unknown }[]): boolean {
  return matches.some((m) => (m.handle as { document?: unknown } | undefined)?.document === "bare");
}
