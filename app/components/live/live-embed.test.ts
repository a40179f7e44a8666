import { describe, expect, it } from "vitest";
import { replacePlaces } from "../../live-embed.tsx";

/** Just enough of a DOM for the mount logic (the unit project runs without one). */
function fakeDocument(langs: (string | null)[]) {
  const body: unknown[] = [];
  const view: { liveMatchWidgetPresent?: boolean } = {};
  const el = (attrs: Record<string, string | null>) => {
    const node = {
      attrs: { ...attrs } as Record<string, string | null>,
      className: "",
      getAttribute: (k: string) => node.attrs[k] ?? null,
      setAttribute: (k: string, v: string) => void (node.attrs[k] = v),
      replaceWith: (other: unknown) => void body.splice(body.indexOf(node), 1, other),
    };
    return node;
  };
  const places = langs.map((l) => el({ "data-place": "widget-live-match", "data-lang": l }));
  body.push(el({ id: "other" }), ...places);
  let selector = "";
  const doc = {
    defaultView: view,
    querySelectorAll: (s: string) => ((selector = s), places),
    createElement: () => el({}),
  };
  return { doc: doc as unknown as Document, body, view, selector: () => selector };
}

describe("replacePlaces", () => {
  it("replaces every marked element with a container, normalises data-lang and sets the flag", () => {
    const f = fakeDocument(["pl", "fr", null]);
    const mounts = replacePlaces(f.doc);
    expect(f.selector()).toBe('[data-place="widget-live-match"]');
    expect(mounts.map((m) => m.lang)).toEqual(["pl", "en", "en"]);
    expect(f.body.slice(1)).toEqual(mounts.map((m) => m.container));
    expect(mounts[0]!.container.className).toBe("live-widget-root");
    expect(f.view.liveMatchWidgetPresent).toBe(true);
  });
  it("leaves the flag unset without a place", () => {
    const f = fakeDocument([]);
    expect(replacePlaces(f.doc)).toEqual([]);
    expect(f.view.liveMatchWidgetPresent).toBeUndefined();
  });
});
