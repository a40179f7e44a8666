/**
 * What the live widgets need once they start (the centrifuge client, the controller, zod's parsing): one chunk the
 * widgets import when they come into view (issue 18), so a page with a widget below the fold does not ship it first.
 */
export { clientRpc, clientSubscribe } from "./connection.ts";
export { createLiveMatchController } from "./live-match-controller.ts";
export { loadListMatches } from "./loading.ts";
