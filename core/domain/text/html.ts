/**
 * The one HTML escape, for text and attribute values alike: what WordPress's `esc_html` / `esc_attr`
 * output for the five special characters (& → &amp;, < → &lt;, > → &gt;, " → &quot;, ' → &#039;).
 * Every HTML string the shop builds by hand (wire fragments, notices, price HTML) goes through it.
 */
const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#039;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
