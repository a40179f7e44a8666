/**
 * Cart benchmark (issue 4): add_to_cart, remove_from_cart and get_refreshed_fragments against a
 * production server, with carts of 1 and 50 lines. Figures only: `npx tsx bench/cart.ts`
 * (BENCH_SECONDS, BENCH_PORT to change).
 */
import { load, printLoad, startBenchServer, type LoadResult } from "./support.ts";

const FORM = { "content-type": "application/x-www-form-urlencoded; charset=UTF-8" };
const server = await startBenchServer({ products: 200, port: Number(process.env.BENCH_PORT ?? 3991) });

/** A browser session: its cookies, kept by hand. */
async function newSession(): Promise<{ cookie: string; post: (path: string, body: string) => Promise<Response> }> {
  const jar = new Map<string, string>();
  const post = async (path: string, body: string) => {
    const res = await fetch(server.url + path, { method: "POST", headers: { ...FORM, cookie: [...jar].map(([k, v]) => `${k}=${v}`).join("; ") }, body });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const eq = pair!.indexOf("=");
      jar.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  };
  await post("/?wc-ajax=get_refreshed_fragments", "time=1");
  return {
    post,
    get cookie() {
      return [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
    },
  };
}

try {
  const ids = (await (await fetch(`${server.url}/shop/?orderby=price`)).text()).match(/data-product_id="(\d+)"/g)?.map((m) => m.replace(/\D/g, "")) ?? [];
  const simple = ids[0]!;
  // 50 distinct simple products in stock, from the generated catalogue's listing pages.
  const many: string[] = [];
  for (let page = 1; many.length < 50 && page < 30; page++) {
    const html = await (await fetch(`${server.url}/shop/page/${page}/`)).text();
    for (const m of html.matchAll(
      /class="button product_type_simple add_to_cart_button ajax_add_to_cart" data-product_id="(\d+)"|data-product_id="(\d+)"[^>]*ajax_add_to_cart/g,
    )) {
      const id = m[1] ?? m[2];
      if (id && !many.includes(id)) many.push(id);
    }
  }
  const rows: LoadResult[] = [];
  for (const size of [1, 50]) {
    const s = await newSession();
    for (const id of size === 1 ? [simple] : many.slice(0, 50)) await s.post("/?wc-ajax=add_to_cart", `product_id=${id}&quantity=1`);
    const lines = size === 1 ? 1 : Math.min(50, many.length);
    rows.push(
      await load(`get_refreshed_fragments, ${lines} line(s)`, {
        url: `${server.url}/?wc-ajax=get_refreshed_fragments`,
        method: "POST",
        headers: { ...FORM, cookie: s.cookie },
        body: "time=1",
      }),
    );
    rows.push(
      await load(`add_to_cart (same line), ${lines} line(s)`, {
        url: `${server.url}/?wc-ajax=add_to_cart`,
        method: "POST",
        headers: { ...FORM, cookie: s.cookie },
        body: `product_id=${simple}&quantity=1`,
      }),
    );
    // remove_from_cart of a key that is gone after the first request measures the lookup; the
    // first request measures a real removal. Both go through the same locked transaction.
    const json = (await (await s.post("/?wc-ajax=get_refreshed_fragments", "time=1")).json()) as { fragments: Record<string, string> };
    const key = /data-cart_item_key="([0-9a-f]{32})"/.exec(json.fragments["div.widget_shopping_cart_content"]!)?.[1] ?? "0".repeat(32);
    rows.push(
      await load(`remove_from_cart, ${lines} line(s)`, {
        url: `${server.url}/?wc-ajax=remove_from_cart`,
        method: "POST",
        headers: { ...FORM, cookie: s.cookie },
        body: `cart_item_key=${key}`,
      }),
    );
  }
  console.log(`\n## Cart endpoints (${process.env.BENCH_SECONDS ?? 8} s each, 16 connections, one shared cart)\n`);
  printLoad(rows);
} finally {
  await server.stop();
}
