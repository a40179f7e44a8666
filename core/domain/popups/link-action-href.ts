/**
 * Whether an href looks like a link action (docs/contract/storefront.md §2 'Popups and link actions'): the page's
 * always-loaded click listener tests this before it loads the parser (link-actions.ts), so it is a module of its own.
 */
export const LINK_ACTION_HREF = /^#(?:popup:|off_canvas:|reload-page$|elementor-action(?::|%3A))/i;
