/**
 * WordPress's own REST client, bundled for a test page (tests/support/api-fetch.ts builds it): the coming-soon
 * dismissal and other REST calls are checked with the client the contract names, not with our own fetch.
 */
import apiFetch from "@wordpress/api-fetch";

(window as unknown as { wpApiFetch: typeof apiFetch }).wpApiFetch = apiFetch;
