/** A tiny HTTP client for tests that keeps cookies like a browser and reads them back. */
export interface CookieRecord {
  value: string;
  attributes: string;
}

export class TestClient {
  readonly cookies = new Map<string, CookieRecord>();
  constructor(
    readonly base: string,
    /** Sent as X-Forwarded-For (the shop trusts its loopback proxy), so a test can act from another client address. */
    private readonly opts: { forwardedFor?: string } = {},
  ) {}

  cookieHeader(): string {
    return [...this.cookies.entries()].map(([k, v]) => `${k}=${v.value}`).join("; ");
  }

  async request(path: string, init: RequestInit & { form?: Record<string, string | string[]>; json?: unknown } = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size) headers.set("cookie", this.cookieHeader());
    if (this.opts.forwardedFor) headers.set("x-forwarded-for", this.opts.forwardedFor);
    let body = init.body;
    if (init.form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(init.form)) for (const item of Array.isArray(v) ? v : [v]) params.append(k, item);
      body = params.toString();
      headers.set("content-type", "application/x-www-form-urlencoded; charset=UTF-8");
    } else if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers.set("content-type", "application/json");
    }
    const res = await fetch(this.base + path, { ...init, headers, body, redirect: init.redirect ?? "manual" });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(";");
      const eq = pair!.indexOf("=");
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const attributes = attrs.join(";");
      if (/max-age=0/i.test(attributes) || /expires=thu, 01 jan 1970/i.test(attributes)) this.cookies.delete(name);
      else this.cookies.set(name, { value, attributes });
    }
    return res;
  }

  get(path: string, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "GET" });
  }

  post(path: string, form: Record<string, string | string[]>, init: RequestInit = {}) {
    return this.request(path, { ...init, method: "POST", form });
  }

  cookie(name: string): string | undefined {
    const v = this.cookies.get(name)?.value;
    return v === undefined ? undefined : decodeURIComponent(v);
  }

  cookieStartingWith(prefix: string): [string, CookieRecord] | undefined {
    return [...this.cookies.entries()].find(([k]) => k.startsWith(prefix));
  }
}

/** Reads a `var name = {...};` global printed into a page. */
export function pageGlobal(html: string, name: string): Record<string, unknown> {
  const m = new RegExp(`var ${name} = (\\{.*?\\});`).exec(html);
  if (!m) throw new Error(`global ${name} not in page`);
  return JSON.parse(m[1]!);
}
