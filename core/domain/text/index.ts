/** Text shown to people or put on the wire: HTML escaping and the date format. */
export { escapeHtml } from "./html.ts";
export { formatDate } from "./date.ts";
