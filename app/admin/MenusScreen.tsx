/**
 * Menus (docs/contract/admin.md 'Menus'): WordPress's nav-menus screen over `shop/v1/menus`. Choose a menu (or
 * create one), rename it, choose where it shows (header `primary`, footer `footer`), and edit its items: add a shop
 * page, a content page, a product category or a custom link; retitle; move up and down, under the item above (indent) or out again (outdent)
 * with buttons, so the whole tree is keyboard-usable; mark a top-level item as a mega menu; remove. "Save menu" sends
 * the whole tree (`PUT shop/v1/menus/{id}`); the header shows it from the next page (the write invalidates cached pages).
 */
import { useEffect, useRef, useState } from "react";
import { Button, CheckboxControl, SelectControl, TextControl } from "@wordpress/components";
import "@wordpress/components/build-style/style.css";
import "./admin-screens.css";
import { getWithHeaders, send, type RestError } from "./api.ts";
import { Loading, LoadError, ResultNotice, type ActionResult } from "./Status.tsx";
import { useUnsavedWarning } from "./use-unsaved-warning.ts";
import { apiItems, editorItems, indentItem, itemAt, moveItem, newKey, outdentItem, removeItem, updateItem, type EditorItem, type Path } from "./menu-tree.ts";
import { MENU_PAGES, isMenuCustomUrl } from "../../core/domain/menus/menus.ts";

interface RestMenu {
  id: number;
  name: string;
  slug: string;
  location: string | null;
  modified_gmt: string;
  items: Record<string, unknown>[];
}
interface Named {
  id: number;
  name: string;
}
type Draft = { id: number; name: string; location: string | null; items: EditorItem[] };
type Load =
  { state: "loading" } | { state: "error"; error: RestError } | { state: "ready"; menus: RestMenu[]; categories: Named[]; products: Named[]; pages: Named[] };

/** The storefront's menu locations (the header reads `primary`, the footer `footer`). */
const LOCATIONS: Record<string, string> = { primary: "Header", footer: "Footer" };

const draftOf = (m: RestMenu): Draft => ({ id: m.id, name: m.name, location: m.location, items: editorItems(m.items) });
const sameDraft = (a: Draft, b: Draft) => JSON.stringify({ ...a, items: apiItems(a.items) }) === JSON.stringify({ ...b, items: apiItems(b.items) });

export default function MenusScreen() {
  const [load, setLoad] = useState<Load>({ state: "loading" });
  const [reloads, setReloads] = useState(0);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [saved, setSaved] = useState<Draft | null>(null);
  const [result, setResult] = useState<ActionResult>(null);
  const [busy, setBusy] = useState(false);
  const [newMenu, setNewMenu] = useState("");
  const [add, setAdd] = useState({ kind: "page" as "page" | "post" | "product_cat" | "custom", page: "shop", post: "", category: "", url: "", title: "" });
  const [addError, setAddError] = useState("");
  const [confirmDelete, setConfirmDelete] = useState(false);
  /** The item whose button was just used: its title field gets the focus back once the tree re-rendered. */
  const focusKey = useRef<string | null>(null);
  const dirty = draft !== null && saved !== null && !sameDraft(draft, saved);
  useUnsavedWarning(dirty);

  useEffect(() => {
    let live = true;
    Promise.all([getWithHeaders<RestMenu[]>("/shop/v1/menus?per_page=100"), getWithHeaders<Named[]>("/wc/v3/products/categories?per_page=100&_fields=id,name")])
      .then(async ([menus, categories]) => {
        // The products the menus name (featured cards), by name rather than by id.
        const ids = new Set<number>();
        const collect = (items: Record<string, unknown>[]): void =>
          items.forEach((i) => {
            if (i.kind === "product" && typeof i.object_id === "number") ids.add(i.object_id);
            collect((i.children as Record<string, unknown>[]) ?? []);
          });
        menus.body.forEach((m) => collect(m.items));
        const products = ids.size ? (await getWithHeaders<Named[]>(`/wc/v3/products?include=${[...ids].join(",")}&per_page=100&_fields=id,name`)).body : [];
        // The content pages a menu may link (the footer's About, Contact…): wp/v2/pages, titles as WordPress renders them.
        const pages = (await getWithHeaders<{ id: number; title: { rendered: string } }[]>("/wp/v2/pages?per_page=100&_fields=id,title")).body.map((p) => ({
          id: p.id,
          name: new DOMParser().parseFromString(p.title.rendered, "text/html").body.textContent ?? "",
        }));
        return [menus, categories, products, pages] as const;
      })
      .then(
        ([menus, categories, products, pages]) => {
          if (!live) return;
          setLoad({ state: "ready", menus: menus.body, categories: categories.body, products, pages });
          const keep = draft ? menus.body.find((m) => m.id === draft.id) : undefined;
          const open = keep ?? menus.body.find((m) => m.location === "primary") ?? menus.body[0];
          const d = open ? draftOf(open) : null;
          setDraft(d);
          setSaved(d);
        },
        (error: RestError) => live && setLoad({ state: "error", error }),
      );
    return () => {
      live = false;
    };
    // The draft is read once per load, to keep the menu that was open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [reloads]);

  useEffect(() => {
    if (!focusKey.current) return;
    document.querySelector<HTMLElement>(`[data-menu-item="${focusKey.current}"] input`)?.focus();
    focusKey.current = null;
  }, [draft]);

  if (load.state === "loading") return <Loading what="the menus" />;
  if (load.state === "error") return <LoadError error={load.error} />;
  const { menus, categories, products, pages } = load;
  const names = { categories, products, pages };

  function choose(id: number) {
    if (dirty && !window.confirm("Leave this menu? Your changes to it are not saved.")) return;
    const m = menus.find((x) => x.id === id);
    if (m) {
      setDraft(draftOf(m));
      setSaved(draftOf(m));
      setResult(null);
    }
  }

  async function act(run: () => Promise<string>, failed: string) {
    if (busy) return;
    setBusy(true);
    setResult(null);
    try {
      setResult({ status: "success", text: await run() });
    } catch (e) {
      const error = e as RestError;
      const params = Object.entries(error.data?.params ?? {}).map(([k, v]) => `${k}: ${v}`);
      setResult({ status: "error", text: `${failed}: ${params.length ? params.join("; ") : error.message}` });
    } finally {
      setBusy(false);
    }
  }

  const save = () =>
    act(async () => {
      if (!draft) return "";
      const { body } = await send<RestMenu>(`/shop/v1/menus/${draft.id}`, "PUT", { name: draft.name, location: draft.location, items: apiItems(draft.items) });
      const d = draftOf(body);
      setDraft(d);
      setSaved(d);
      setReloads((n) => n + 1);
      return `Menu “${body.name}” saved${body.location && LOCATIONS[body.location] ? `: the ${LOCATIONS[body.location]!.toLowerCase()} shows it now` : ""}.`;
    }, "The menu was not saved");

  const create = () =>
    act(async () => {
      if (!newMenu.trim()) throw { code: "empty", message: "Give the new menu a name." } satisfies RestError;
      const { body } = await send<RestMenu>("/shop/v1/menus", "POST", { name: newMenu.trim(), items: [] });
      setNewMenu("");
      setDraft(draftOf(body));
      setSaved(draftOf(body));
      setReloads((n) => n + 1);
      return `Menu “${body.name}” created: add its items below.`;
    }, "The menu was not created");

  const remove = () =>
    act(async () => {
      if (!draft) return "";
      await send(`/shop/v1/menus/${draft.id}`, "DELETE", undefined);
      const name = draft.name;
      setDraft(null);
      setSaved(null);
      setConfirmDelete(false);
      setReloads((n) => n + 1);
      return `Menu “${name}” deleted.`;
    }, "The menu was not deleted");

  function addItem() {
    if (!draft) return;
    let target: Partial<EditorItem> | null = null;
    if (add.kind === "page") target = { kind: "page", page: add.page };
    else if (add.kind === "post") target = add.post ? { kind: "post", object_id: Number(add.post) } : null;
    else if (add.kind === "product_cat") target = add.category ? { kind: "product_cat", object_id: Number(add.category) } : null;
    else if (isMenuCustomUrl(add.url.trim())) target = { kind: "custom", url: add.url.trim() };
    if (!target) {
      setAddError(
        add.kind === "product_cat"
          ? "Choose a category."
          : add.kind === "post"
            ? "Choose a page."
            : "An address such as https://example.com, /about/ or mailto:hello@example.com.",
      );
      return;
    }
    const item: EditorItem = { key: newKey(), title: add.title.trim(), mega: false, featured: false, children: [], ...target } as EditorItem;
    setDraft({ ...draft, items: [...draft.items, item] });
    setAdd({ ...add, url: "", title: "" });
    setAddError("");
    setResult({ status: "success", text: `Added “${describe(item, names)}” at the end of the menu. Save the menu to publish it.` });
  }

  function tree(op: (items: EditorItem[]) => { items: EditorItem[]; path: Path } | null, what: string, key: string) {
    if (!draft) return;
    const done = op(draft.items);
    if (!done) {
      setResult({ status: "error", text: `Cannot ${what}: menus nest at most three levels, and the first or last item cannot move further.` });
      return;
    }
    setDraft({ ...draft, items: done.items });
    focusKey.current = key;
    setResult({ status: "success", text: `Moved ${what.replace(/^move /, "")}.` });
  }

  const renderItems = (items: EditorItem[], parent: Path): React.ReactNode => (
    <ol className="admin-menu-items">
      {items.map((item, i) => {
        const path = [...parent, i];
        const name = item.title || describe(item, names);
        return (
          <li key={item.key} data-menu-item={item.key}>
            <div className="admin-menu-item" role="group" aria-label={`Menu item ${name}`}>
              <TextControl
                __next40pxDefaultSize
                label={`Title (${kindName(item, names)})`}
                placeholder={describe(item, names)}
                value={item.title}
                onChange={(title) => setDraft({ ...draft!, items: updateItem(draft!.items, path, { title }) })}
              />
              {parent.length === 0 ? (
                <CheckboxControl
                  label="Mega menu (children as columns)"
                  checked={item.mega}
                  onChange={(mega) => setDraft({ ...draft!, items: updateItem(draft!.items, path, { mega }) })}
                />
              ) : null}
              <div className="admin-buttons">
                <Button
                  variant="secondary"
                  size="small"
                  onClick={() => tree((t) => moveItem(t, path, -1), `move ${name} up`, item.key)}
                  label={`Move ${name} up`}
                >
                  ↑
                </Button>
                <Button
                  variant="secondary"
                  size="small"
                  onClick={() => tree((t) => moveItem(t, path, 1), `move ${name} down`, item.key)}
                  label={`Move ${name} down`}
                >
                  ↓
                </Button>
                <Button variant="secondary" size="small" onClick={() => tree((t) => indentItem(t, path), `move ${name} under the item above`, item.key)}>
                  Indent
                </Button>
                <Button variant="secondary" size="small" onClick={() => tree((t) => outdentItem(t, path), `move ${name} out of its parent`, item.key)}>
                  Outdent
                </Button>
                <Button
                  variant="link"
                  isDestructive
                  onClick={() => {
                    setDraft({ ...draft!, items: removeItem(draft!.items, path) });
                    setResult({
                      status: "success",
                      text: `Removed “${name}”${itemAt(draft!.items, path).children.length ? " and the items under it" : ""}. Save the menu to publish it.`,
                    });
                  }}
                  aria-label={`Remove ${name}`}
                >
                  Remove
                </Button>
              </div>
            </div>
            {item.children.length ? renderItems(item.children, path) : null}
          </li>
        );
      })}
    </ol>
  );

  return (
    <div className="admin-menus">
      <ResultNotice result={result} />
      <section className="admin-card" aria-labelledby="menus-choose">
        <h2 id="menus-choose">Menus</h2>
        <div className="admin-row">
          {menus.length ? (
            <SelectControl
              __next40pxDefaultSize
              label="Menu to edit"
              value={draft ? String(draft.id) : ""}
              options={menus.map((m) => ({
                value: String(m.id),
                label: `${m.name}${m.location ? ` (${(LOCATIONS[m.location] ?? m.location).toLowerCase()})` : ""}`,
              }))}
              onChange={(v) => choose(Number(v))}
            />
          ) : (
            <p>No menus yet.</p>
          )}
          <form
            className="admin-row"
            onSubmit={(e) => {
              e.preventDefault();
              void create();
            }}
          >
            <TextControl __next40pxDefaultSize label="New menu name" value={newMenu} onChange={setNewMenu} />
            <Button variant="secondary" type="submit" __next40pxDefaultSize>
              Create menu
            </Button>
          </form>
        </div>
      </section>
      {draft ? (
        <>
          <section className="admin-card" aria-labelledby="menu-items">
            <h2 id="menu-items">Items of “{saved?.name ?? draft.name}”</h2>
            <div className="admin-row">
              <TextControl __next40pxDefaultSize label="Menu name" value={draft.name} onChange={(name) => setDraft({ ...draft, name })} />
              <SelectControl
                __next40pxDefaultSize
                label="Display location"
                value={draft.location ?? ""}
                options={[
                  { value: "", label: "None (not shown)" },
                  ...Object.entries(LOCATIONS).map(([value, label]) => ({ value, label })),
                  // A location set through the API that this screen does not name stays as it is.
                  ...(draft.location && !(draft.location in LOCATIONS) ? [{ value: draft.location, label: draft.location }] : []),
                ]}
                onChange={(location) => setDraft({ ...draft, location: location || null })}
                help="A location belongs to one menu: choosing it here takes it from the menu that had it."
              />
            </div>
            {draft.items.length ? renderItems(draft.items, []) : <p>This menu has no items: add some below.</p>}
            <div className="admin-buttons">
              <Button variant="primary" isBusy={busy} aria-disabled={busy} onClick={() => void save()} __next40pxDefaultSize>
                Save menu
              </Button>
              {dirty ? <span className="admin-hint">Unsaved changes.</span> : null}
              {confirmDelete ? (
                <>
                  <Button variant="primary" isDestructive onClick={() => void remove()} __next40pxDefaultSize>
                    Delete “{draft.name}” for good
                  </Button>
                  <Button variant="tertiary" onClick={() => setConfirmDelete(false)} __next40pxDefaultSize>
                    Keep it
                  </Button>
                </>
              ) : (
                <Button variant="link" isDestructive onClick={() => setConfirmDelete(true)}>
                  Delete menu
                </Button>
              )}
            </div>
          </section>
          <section className="admin-card" aria-labelledby="menu-add">
            <h2 id="menu-add">Add menu items</h2>
            <div className="admin-row">
              <SelectControl
                __next40pxDefaultSize
                label="Kind"
                value={add.kind}
                options={[
                  { value: "page", label: "Shop page" },
                  { value: "post", label: "Content page" },
                  { value: "product_cat", label: "Product category" },
                  { value: "custom", label: "Custom link" },
                ]}
                onChange={(kind) => {
                  setAdd({ ...add, kind });
                  setAddError("");
                }}
              />
              {add.kind === "page" ? (
                <SelectControl
                  __next40pxDefaultSize
                  label="Page"
                  value={add.page}
                  options={Object.entries(MENU_PAGES).map(([value, p]) => ({ value, label: p.name }))}
                  onChange={(page) => setAdd({ ...add, page })}
                />
              ) : add.kind === "post" ? (
                <SelectControl
                  __next40pxDefaultSize
                  label="Content page"
                  value={add.post}
                  options={[{ value: "", label: "Choose…" }, ...pages.map((p) => ({ value: String(p.id), label: p.name }))]}
                  onChange={(post) => {
                    setAdd({ ...add, post });
                    setAddError("");
                  }}
                  aria-invalid={Boolean(addError)}
                  help={addError ? <span className="admin-field-error">{addError}</span> : undefined}
                />
              ) : add.kind === "product_cat" ? (
                <SelectControl
                  __next40pxDefaultSize
                  label="Category"
                  value={add.category}
                  options={[{ value: "", label: "Choose…" }, ...categories.map((c) => ({ value: String(c.id), label: c.name }))]}
                  onChange={(category) => {
                    setAdd({ ...add, category });
                    setAddError("");
                  }}
                  aria-invalid={Boolean(addError)}
                  help={addError ? <span className="admin-field-error">{addError}</span> : undefined}
                />
              ) : (
                <TextControl
                  __next40pxDefaultSize
                  label="Address"
                  value={add.url}
                  onChange={(url) => {
                    setAdd({ ...add, url });
                    setAddError("");
                  }}
                  aria-invalid={Boolean(addError)}
                  help={addError ? <span className="admin-field-error">{addError}</span> : undefined}
                />
              )}
              <TextControl __next40pxDefaultSize label="Title (optional)" value={add.title} onChange={(title) => setAdd({ ...add, title })} />
            </div>
            <Button variant="secondary" onClick={addItem} __next40pxDefaultSize>
              Add to menu
            </Button>
          </section>
        </>
      ) : null}
    </div>
  );
}

type Names = { categories: Named[]; products: Named[]; pages: Named[] };

function kindName(item: EditorItem, { categories }: Names): string {
  switch (item.kind) {
    case "page":
      return "shop page";
    case "product_cat":
      return categories.some((c) => c.id === item.object_id) ? "category" : "category, deleted";
    case "product":
      return "product";
    case "post":
      return "page or post";
    case "custom":
      return "custom link";
    default:
      return "link action";
  }
}

/** What an item points at, in words (its title when none is set). */
function describe(item: EditorItem, { categories, products, pages }: Names): string {
  switch (item.kind) {
    case "page":
      return MENU_PAGES[item.page as keyof typeof MENU_PAGES]?.name ?? String(item.page);
    case "product_cat":
      return categories.find((c) => c.id === item.object_id)?.name ?? `category #${item.object_id}`;
    case "product":
      return products.find((p) => p.id === item.object_id)?.name ?? `product #${item.object_id}`;
    case "post":
      return pages.find((p) => p.id === item.object_id)?.name ?? `post #${item.object_id}`;
    case "custom":
      return item.url ?? "";
    default:
      return item.href ?? "";
  }
}
