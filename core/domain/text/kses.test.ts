import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { autop, plainText, richTextHtml, sanitizePostHtml, slugify } from "./kses.ts";

describe("sanitizePostHtml", () => {
  it("keeps the allowed markup and removes scripts, handlers and unsafe URLs", () => {
    expect(sanitizePostHtml('<p class="x">Hi <strong>there</strong></p>')).toBe('<p class="x">Hi <strong>there</strong></p>');
    expect(sanitizePostHtml("<p>a<script>alert(1)</script>b</p>")).toBe("<p>ab</p>");
    expect(sanitizePostHtml('<img src="x" onerror="alert(1)">')).toBe('<img src="x">');
    expect(sanitizePostHtml('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizePostHtml('<a href="java&#x09;script:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(sanitizePostHtml('<a href="/blog/" target="_blank">x</a>')).toBe('<a href="/blog/" target="_blank" rel="noopener">x</a>');
    expect(sanitizePostHtml("<iframe src=//evil></iframe><svg onload=alert(1)>")).toBe("");
    expect(sanitizePostHtml('<p style="background:url(javascript:x)">y</p>')).toBe("<p>y</p>");
    expect(sanitizePostHtml('<p title="a&quot; onmouseover=&quot;x">y</p>')).toBe('<p title="a&quot; onmouseover=&quot;x">y</p>');
  });

  it("keeps WordPress's global attributes that link actions rely on: hidden, aria-controls, aria-expanded", () => {
    expect(sanitizePostHtml('<a href="#off_canvas:toggle:promo" aria-controls="off-canvas-promo" aria-expanded="false">T</a>')).toBe(
      '<a href="#off_canvas:toggle:promo" aria-controls="off-canvas-promo" aria-expanded="false">T</a>',
    );
    expect(sanitizePostHtml('<div id="off-canvas-promo" hidden><p>P</p></div>')).toBe('<div id="off-canvas-promo" hidden=""><p>P</p></div>');
  });

  it("balances tags so a body cannot close the page's elements, and escapes stray brackets", () => {
    expect(sanitizePostHtml("</div></article><p>x")).toBe("<p>x</p>");
    expect(sanitizePostHtml("1 < 2 and 3 > 2")).toBe("1 &lt; 2 and 3 &gt; 2");
    expect(sanitizePostHtml("<b>unclosed <i>x</b>")).toBe("<b>unclosed <i>x</i></b>");
    expect(sanitizePostHtml("<!-- <script>x</script> -->ok\u0000")).toBe("ok");
  });
});

describe("plainText and slugify", () => {
  it("strip markup and make WordPress-like slugs", () => {
    expect(plainText("<b>Tom</b> &amp; Jerry <script>x</script>")).toBe("Tom & Jerry");
    expect(slugify("Café au Lait: 10 Tips!")).toBe("cafe-au-lait-10-tips");
    expect(slugify("<script></script>")).toBe("");
  });
});

describe("sanitizePostHtml on any input", () => {
  const pieces = [
    "<script>",
    "</script>",
    "<img src=x onerror=alert(1)>",
    '<a href="javascript:x">',
    "<p>",
    "</p>",
    "<!--",
    "-->",
    "<",
    ">",
    '"',
    "'",
    "&#106;",
    "text",
    " on",
    "=",
    "<svg/onload=x>",
    "<style>",
    "</div>",
    "<b>",
    "\u0000",
  ];
  const html = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string()), { maxLength: 30 }).map((parts) => parts.join(""));

  it("never lets a script, an event handler or a javascript: URL through, and is stable when run again", () => {
    fc.assert(
      fc.property(html, (input) => {
        const out = sanitizePostHtml(input);
        expect(out).not.toMatch(/<script|<style|<svg|<iframe/i);
        // Every attribute the sanitiser writes is name="value": no event handler among the names.
        expect(out).not.toMatch(/<[a-z0-9]+(\s+[a-z0-9_.-]+="[^"]*")*\s+on[a-z]+=/i);
        expect(out).not.toMatch(/(href|src)="\s*javascript:/i);
        expect(sanitizePostHtml(out)).toBe(out);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("autop and richTextHtml (product descriptions, decision 0046)", () => {
  it("makes paragraphs of blank-line-separated text and breaks of single newlines", () => {
    expect(autop("One\r\n\r\nTwo\nthree\n\n\n")).toBe("<p>One</p>\n<p>Two<br />\nthree</p>\n");
  });
  it("sanitises HTML as is and a text without tags after autop", () => {
    expect(richTextHtml('<p onclick="x()">Hi</p><script>y()</script>')).toBe("<p>Hi</p>");
    expect(richTextHtml("a < b\n\nc")).toBe("<p>a &lt; b</p>\n<p>c</p>\n");
  });
});
