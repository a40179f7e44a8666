/**
 * What WooCommerce's product-page scripts need from the page when a theme or plugin enqueues them
 * (docs/contract/wire.md §1.11): their globals, in a nonce'd script (our CSP), and on variable products the two
 * wp.template templates add-to-cart-variation.js renders a found (or unavailable) variation with. Template scripts
 * of type text/template never run; wp.template reads their text by id ('tmpl-' + name).
 */
import { useEffect } from "react";
import { globalsScript } from "../../lib/page-globals.ts";

/** wp.template syntax: {{{ }}} prints unescaped, as WooCommerce's own template prints the variation's HTML fields. */
export const VARIATION_TEMPLATE = [
  `<div class="woocommerce-variation-description">{{{ data.variation.variation_description }}}</div>`,
  `<div class="woocommerce-variation-price">{{{ data.variation.price_html }}}</div>`,
  `<div class="woocommerce-variation-availability">{{{ data.variation.availability_html }}}</div>`,
].join("");

export const UNAVAILABLE_VARIATION_TEMPLATE = `<p role="alert">Sorry, this product is unavailable. Please choose a different combination.</p>`;

export function WooCommerceProductScripts({ globals, nonce, variable }: { globals: Record<string, unknown>; nonce: string; variable: boolean }) {
  // After an in-app navigation the server's <script> does not run: the globals are set from here instead.
  useEffect(() => {
    Object.assign(window, globals);
  }, [globals]);
  return (
    <>
      <script nonce={nonce || undefined} dangerouslySetInnerHTML={{ __html: globalsScript(globals) }} />
      {variable ? (
        <>
          <script type="text/template" id="tmpl-variation-template" dangerouslySetInnerHTML={{ __html: VARIATION_TEMPLATE }} />
          <script type="text/template" id="tmpl-unavailable-variation-template" dangerouslySetInnerHTML={{ __html: UNAVAILABLE_VARIATION_TEMPLATE }} />
        </>
      ) : null}
    </>
  );
}
