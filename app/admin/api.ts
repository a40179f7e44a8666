/**
 * The admin's only way to the server: WordPress's `@wordpress/api-fetch` against the REST API (decision 0024), with
 * the REST nonce the page came with and api-fetch's own refresh of a stale nonce through admin-ajax.php.
 */
import apiFetch from "@wordpress/api-fetch";

let nonceMiddleware: ReturnType<typeof apiFetch.createNonceMiddleware> | null = null;

/** Sets api-fetch up once per page (root `/wp-json/`, the nonce); later calls only update the nonce. */
export function setUpApi(nonce: string): void {
  if (nonceMiddleware) {
    nonceMiddleware.nonce = nonce;
    return;
  }
  nonceMiddleware = apiFetch.createNonceMiddleware(nonce);
  apiFetch.use(apiFetch.createRootURLMiddleware("/wp-json/"));
  apiFetch.use(nonceMiddleware);
  // Registered last, so it runs first: an upload whose sizes failed is retried with media/{id}/post-process (decision 0020).
  apiFetch.use(apiFetch.mediaUploadMiddleware);
  apiFetch.nonceMiddleware = nonceMiddleware;
  apiFetch.nonceEndpoint = "/wp-admin/admin-ajax.php?action=rest-nonce";
}

/** A REST error's body (`{code, message, data}`), or a stand-in when the answer was not JSON (network, proxy). */
export interface RestError {
  code: string;
  message: string;
  data?: { status?: number; params?: Record<string, string>; resource_id?: number };
}

export async function restErrorOf(thrown: unknown): Promise<RestError> {
  if (thrown instanceof Response) {
    try {
      return (await thrown.json()) as RestError;
    } catch {
      return { code: "invalid_json", message: `The server answered ${thrown.status} without an explanation. Please try again.` };
    }
  }
  if (thrown && typeof thrown === "object" && "code" in thrown && "message" in thrown) return thrown as RestError;
  return { code: "fetch_error", message: "You are probably offline: the shop could not be reached. Please try again." };
}

/** A GET that also answers the response's headers (totals, ETag). */
export async function getWithHeaders<T>(path: string): Promise<{ body: T; headers: Headers }> {
  try {
    const res = (await apiFetch({ path, parse: false })) as Response;
    return { body: (await res.json()) as T, headers: res.headers };
  } catch (thrown) {
    throw await restErrorOf(thrown);
  }
}

/** A write; the answer's body and headers, or a RestError thrown. */
export async function send<T>(
  path: string,
  method: "POST" | "PUT" | "DELETE",
  data: unknown,
  headers: Record<string, string> = {},
): Promise<{ body: T; headers: Headers }> {
  try {
    const res = (await apiFetch({ path, method, data, headers, parse: false })) as Response;
    return { body: (await res.json()) as T, headers: res.headers };
  } catch (thrown) {
    throw await restErrorOf(thrown);
  }
}

export const query = (params: Record<string, string | number | undefined>) => {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== "") q.set(k, String(v));
  return q.toString();
};

/** An image upload to `wp/v2/media` (the media middleware retries its post-processing on a 5xx); the attachment. */
export async function uploadMedia(file: File): Promise<{ id: number; source_url: string; alt_text: string; title: { rendered: string } }> {
  const body = new FormData();
  body.append("file", file, file.name);
  try {
    return await apiFetch({ path: "/wp/v2/media", method: "POST", body });
  } catch (thrown) {
    throw await restErrorOf(thrown);
  }
}

/** A file uploaded for downloadable products (`shop/v1/downloadable-files`, decision 0041): kept where no address serves it. */
export interface DownloadableFile {
  id: number;
  name: string;
  file: string;
  mime_type: string;
  filesize: number;
}

export async function uploadDownloadableFile(file: File): Promise<DownloadableFile> {
  const body = new FormData();
  body.append("file", file, file.name);
  try {
    return await apiFetch({ path: "/shop/v1/downloadable-files", method: "POST", body });
  } catch (thrown) {
    throw await restErrorOf(thrown);
  }
}
