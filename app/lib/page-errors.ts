/**
 * Script failures the shopper is told about (docs/contract/storefront.md §8): a lazily loaded chunk that fails or
 * times out ("Loading chunk {id} failed.") and a script of the payment form that could not be loaded ("A script
 * error has occurred."). They are announced to the page's `PageErrors` notice area through one window event.
 */
import { SITE_CONFIG } from "../../core/config/site-config.ts";
import { PAYMENT_MESSAGES } from "../../core/domain/payments/messages.ts";

export const PAGE_ERROR_EVENT = "shop:page-error";

/** The spec's chunk failure text, webpack's wording. */
export const chunkFailedMessage = (id: string) => `Loading chunk ${id} failed.`;

/** Shows `message` to the shopper in the page's notice area. */
export function reportPageError(message: string): void {
  window.dispatchEvent(new CustomEvent<string>(PAGE_ERROR_EVENT, { detail: message }));
}

/** A payment-form script failed to load: the shopper sees the spec's general script error. */
export function reportScriptError(): void {
  reportPageError(PAYMENT_MESSAGES.scriptError);
}

/**
 * A lazily loaded chunk (`load` is its dynamic import): rejected with "Loading chunk {id} failed." when the import
 * fails or has not settled within the spec's time-out, and that message shown to the shopper.
 */
export function loadChunk<T>(id: string, load: () => Promise<T>, timeoutMs = SITE_CONFIG.timings.scriptChunkTimeoutMs): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const fail = () => {
      if (settled) return;
      settled = true;
      window.clearTimeout(timer);
      const error = new Error(chunkFailedMessage(id));
      error.name = "ChunkLoadError";
      reportPageError(error.message);
      reject(error);
    };
    const timer = window.setTimeout(fail, timeoutMs);
    load().then((value) => {
      if (settled) return;
      settled = true;
      window.clearTimeout(timer);
      resolve(value);
    }, fail);
  });
}
