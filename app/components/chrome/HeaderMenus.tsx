/**
 * The header's menus (docs/contract/header-menus.md): the primary menu above the break point (dropdowns and the
 * 'Shop' mega menu, opened by click and keyboard), the ☰ flyout below it (the whole tree, search and the account
 * link), and the account menu. Server-rendered from the menu data; React only keeps which one is open.
 */
import { closeAllOverlays, onCloseAllOverlays } from "../../lib/overlays.ts";
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type ReactNode } from "react";
import { NavLink, useLocation } from "react-router";
import type { DisplayMenuItem } from "../../../core/domain/menus/menus.ts";
import type { HeaderFeatured } from "../../../core/domain/menus/header.ts";
import { Price } from "../product/Price.tsx";

/** A storefront path goes through the router (prefetch, `aria-current`); mailto:, link actions, other sites and `plain` stay plain links. */
function MenuLink({
  item,
  className,
  onKeyDown,
  plain = false,
}: {
  item: DisplayMenuItem;
  className?: string;
  onKeyDown?: (e: ReactKeyboardEvent) => void;
  plain?: boolean;
}) {
  if (!plain && item.href.startsWith("/") && !item.href.startsWith("//")) {
    return (
      <NavLink to={item.href} prefetch="intent" className={className} onKeyDown={onKeyDown}>
        {item.title}
      </NavLink>
    );
  }
  return (
    <a href={item.href} className={className} onKeyDown={onKeyDown}>
      {item.title}
    </a>
  );
}

/**
 * State that holds only on the page where it was set: a client-side navigation closes every menu without an effect
 * (the state remembers the address it was opened at).
 */
function usePageState<T>(): [T | null, (value: T | null) => void] {
  const location = useLocation();
  const here = location.pathname + location.search;
  const [state, setState] = useState<{ at: string; value: T } | null>(null);
  return [state && state.at === here ? state.value : null, (value) => setState(value === null ? null : { at: here, value })];
}

const focusables = (root: HTMLElement | null): HTMLElement[] =>
  root
    ? [...root.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), input:not([type=hidden]), [tabindex='0']")].filter((e) => !e.closest("[hidden]"))
    : [];

/** ArrowDown/ArrowUp (and Home/End) move through the links of an open submenu; true when the key was used. */
function moveFocus(e: ReactKeyboardEvent | KeyboardEvent, within: HTMLElement | null): boolean {
  const list = focusables(within);
  if (!list.length) return false;
  const at = list.indexOf(document.activeElement as HTMLElement);
  const next =
    e.key === "ArrowDown"
      ? (at + 1) % list.length
      : e.key === "ArrowUp"
        ? at <= 0
          ? list.length - 1
          : at - 1
        : e.key === "Home"
          ? 0
          : e.key === "End"
            ? list.length - 1
            : -1;
  if (next < 0) return false;
  e.preventDefault();
  list[next]!.focus();
  return true;
}

function SubTree({ items }: { items: DisplayMenuItem[] }) {
  return (
    <ul className="sub-menu">
      {items.map((child) => (
        <li key={child.id} className="menu-item">
          <MenuLink item={child} />
          {child.children.length ? <SubTree items={child.children} /> : null}
        </li>
      ))}
    </ul>
  );
}

function FeaturedCard({ product, fallback }: { product: HeaderFeatured | undefined; fallback: DisplayMenuItem }) {
  return (
    <div className="mega-featured">
      <p className="mega-featured__label">Featured</p>
      <a href={product?.href ?? fallback.href} className="mega-featured__link">
        {product ? <img src={product.image} alt="" width={160} height={160} loading="lazy" decoding="async" /> : null}
        <span className="mega-featured__name">{fallback.title}</span>
      </a>
      {product ? <Price {...product.price} /> : null}
    </div>
  );
}

/** The mega panel: one column per child (its title and its own links), the featured products beside them. */
function MegaPanel({ item, featured }: { item: DisplayMenuItem; featured: HeaderFeatured[] }) {
  const columns = item.children.filter((c) => !c.featured);
  const cards = item.children.filter((c) => c.featured);
  return (
    <div className="mega-panel__inner">
      <ul className="mega-columns">
        {columns.map((col) => (
          <li key={col.id} className="mega-column">
            <MenuLink item={col} className="mega-column__title" />
            {col.children.length ? <SubTree items={col.children} /> : null}
          </li>
        ))}
      </ul>
      {cards.map((c) => (
        <FeaturedCard key={c.id} fallback={c} product={featured.find((f) => f.id === c.object_id)} />
      ))}
    </div>
  );
}

/** The primary menu above the break point: one submenu open at a time, closed by Escape, an outside click or leaving it. */
export function PrimaryMenu({ items, featured }: { items: DisplayMenuItem[]; featured: HeaderFeatured[] }) {
  const [openId, setOpenId] = usePageState<number>();
  const navRef = useRef<HTMLElement>(null);
  const prefix = useId();
  const panelOf = (id: number) => document.getElementById(`${prefix}-sub-${id}`);
  const toggleOf = (id: number) => document.getElementById(`${prefix}-toggle-${id}`);
  // A wide panel (a custom width with its offset) stays inside the window: shifted back by what would overflow.
  useLayoutEffect(() => {
    const panel = openId === null ? null : document.getElementById(`${prefix}-sub-${openId}`);
    if (!panel) return;
    panel.style.removeProperty("translate");
    const r = panel.getBoundingClientRect();
    const edge = document.documentElement.clientWidth - 20;
    const shift = r.right > edge ? edge - r.right : r.left < 20 ? 20 - r.left : 0;
    if (shift) panel.style.translate = `${Math.max(shift, 20 - r.left)}px 0`;
  }, [openId, prefix]);
  useEffect(() => {
    if (openId === null) return;
    const item = () => toggleOf(openId)?.parentElement ?? null;
    // Closed by a click outside the menu, by the focus leaving the item, and by Escape (the focus back on its toggle).
    const outside = (e: Event) => {
      if (!item()?.contains(e.target as Node) && !(e.type === "pointerdown" && navRef.current?.contains(e.target as Node))) setOpenId(null);
    };
    const keys = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        setOpenId(null);
        toggleOf(openId)?.focus();
      } else if (panelOf(openId)?.contains(document.activeElement)) moveFocus(e, panelOf(openId));
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("focusin", outside);
    document.addEventListener("keydown", keys);
    const stopOverlays = onCloseAllOverlays(() => setOpenId(null));
    return () => {
      stopOverlays();
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("focusin", outside);
      document.removeEventListener("keydown", keys);
    };
  });
  const topKeys = (e: ReactKeyboardEvent, item: DisplayMenuItem) => {
    const rtl = document.documentElement.dir === "rtl";
    if (e.key === "ArrowRight" || e.key === "ArrowLeft") {
      // Between the top-level items, in reading order (mirrored in right-to-left mode).
      const tops = [...(navRef.current?.querySelectorAll<HTMLElement>(":scope > ul > li > a") ?? [])];
      const at = tops.findIndex((a) => a.parentElement?.contains(e.currentTarget));
      const step = (e.key === "ArrowRight") !== rtl ? 1 : -1;
      const next = tops[(at + step + tops.length) % tops.length];
      if (next) {
        e.preventDefault();
        setOpenId(null);
        next.focus();
      }
      return;
    }
    if (!item.children.length) return;
    if (e.key === "ArrowDown") {
      e.preventDefault();
      setOpenId(item.id);
      // The panel renders on the next frame; then its first link takes the focus.
      requestAnimationFrame(() => focusables(panelOf(item.id))[0]?.focus());
    }
  };
  return (
    <nav className="main-navigation" aria-label="Primary" ref={navRef}>
      <ul className="menu">
        {items.map((item) => {
          const open = openId === item.id;
          const classes = ["menu-item", item.children.length ? "menu-item-has-children" : "", item.mega ? "mega-menu" : "", open ? "is-open" : ""]
            .filter(Boolean)
            .join(" ");
          return (
            <li key={item.id} className={classes}>
              <MenuLink item={item} onKeyDown={(e) => topKeys(e, item)} />
              {item.children.length ? (
                <>
                  <button
                    type="button"
                    id={`${prefix}-toggle-${item.id}`}
                    className="submenu-toggle"
                    aria-expanded={open}
                    aria-controls={`${prefix}-sub-${item.id}`}
                    aria-label={`${item.title} submenu`}
                    onClick={() => setOpenId(open ? null : item.id)}
                    onKeyDown={(e) => topKeys(e, item)}
                  >
                    <span aria-hidden="true">▾</span>
                  </button>
                  <div id={`${prefix}-sub-${item.id}`} className={item.mega ? "mega-panel" : "dropdown-panel"} hidden={!open}>
                    {item.mega ? <MegaPanel item={item} featured={featured} /> : <SubTree items={item.children} />}
                  </div>
                </>
              ) : null}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A group of the mobile tree: the link, and a button that expands what is under it (never a mega panel). */
function MobileItems({ items, prefix }: { items: DisplayMenuItem[]; prefix: string }) {
  const [expanded, setExpanded] = useState<number[]>([]);
  return (
    <ul>
      {items.map((item) => {
        const open = expanded.includes(item.id);
        return (
          <li key={item.id} className={item.children.length ? "menu-item-has-children" : undefined}>
            <div className="mobile-item">
              {/* A plain link, as before menus were data: the page loads whole and the flyout is gone with it. */}
              <MenuLink item={item} plain />
              {item.children.length ? (
                <button
                  type="button"
                  className="submenu-toggle"
                  aria-expanded={open}
                  aria-controls={`${prefix}-m-${item.id}`}
                  aria-label={`${item.title} submenu`}
                  onClick={() => setExpanded(open ? expanded.filter((id) => id !== item.id) : [...expanded, item.id])}
                >
                  <span aria-hidden="true">{open ? "−" : "+"}</span>
                </button>
              ) : null}
            </div>
            {item.children.length ? (
              <div id={`${prefix}-m-${item.id}`} hidden={!open}>
                <MobileItems items={item.children} prefix={prefix} />
              </div>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The ☰ toggle and its flyout below the break point: a modal dialog with a close button, the whole menu tree,
 * search and the account link; focus moves in and stays in; Escape or the close button closes it and focus returns.
 */
/** One mobile menu per page: a fixed id, so the no-JavaScript link can target it. */
const MOBILE_MENU_ID = "mobile-menu-panel";
const MOBILE_MENU_NO_SCRIPT = `.mobile-menu > button.menu-toggle, .mobile-menu__head > button.mobile-menu__close { display: none; }
#${MOBILE_MENU_ID}:target { display: block; }
#${MOBILE_MENU_ID} ul[hidden] { display: block; }`;

export function MobileMenu({ items, accountLink, fullscreen }: { items: DisplayMenuItem[]; accountLink: ReactNode; fullscreen: boolean }) {
  const [opened, setOpened] = usePageState<true>();
  const open = opened === true;
  const setOpen = (value: boolean) => setOpened(value ? true : null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);
  const prefix = useId();
  useEffect(() => {
    if (!open) return;
    panelRef.current?.querySelector<HTMLElement>(".mobile-menu__close")?.focus();
    const keys = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        setOpen(false);
        toggleRef.current?.focus();
      } else if (e.key === "Tab") {
        const list = focusables(panelRef.current);
        const first = list[0];
        const last = list[list.length - 1];
        if (!first || !last) return;
        const inside = panelRef.current?.contains(document.activeElement);
        if (e.shiftKey && (document.activeElement === first || !inside)) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", keys);
    const stopOverlays = onCloseAllOverlays(() => setOpen(false));
    return () => {
      stopOverlays();
      document.removeEventListener("keydown", keys);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- bound once per opening
  }, [open]);
  return (
    <div className="mobile-menu">
      {/* Without JavaScript the ☰ is a link to the panel, which CSS shows while it is the address's target. */}
      <noscript>
        <style>{MOBILE_MENU_NO_SCRIPT}</style>
        <a className="menu-toggle" href={`#${MOBILE_MENU_ID}`} aria-label="Menu">
          <span aria-hidden="true">☰</span>
        </a>
      </noscript>
      <button
        ref={toggleRef}
        type="button"
        className="menu-toggle"
        aria-expanded={open}
        aria-controls={MOBILE_MENU_ID}
        aria-label="Menu"
        onClick={() => {
          if (!open) closeAllOverlays();
          setOpen(!open);
        }}
      >
        <span aria-hidden="true">☰</span>
      </button>
      <div
        id={MOBILE_MENU_ID}
        ref={panelRef}
        className={`mobile-menu__panel${fullscreen ? " mobile-menu__panel--fullscreen" : ""}`}
        role="dialog"
        aria-modal="true"
        aria-label="Menu"
        hidden={!open}
      >
        <div className="mobile-menu__head">
          <button
            type="button"
            className="mobile-menu__close"
            aria-label="Close menu"
            onClick={() => {
              setOpen(false);
              toggleRef.current?.focus();
            }}
          >
            <span aria-hidden="true">×</span>
          </button>
          <noscript>
            <a className="mobile-menu__close" href="#masthead" aria-label="Close menu">
              <span aria-hidden="true">×</span>
            </a>
          </noscript>
        </div>
        <form className="mobile-search" role="search" action="/" method="get">
          <label className="screen-reader-text" htmlFor={`${prefix}-mobile-search`}>
            Search products
          </label>
          <input id={`${prefix}-mobile-search`} type="search" name="s" placeholder="Search products…" maxLength={100} />
          <input type="hidden" name="post_type" value="product" />
          <button type="submit">Search</button>
        </form>
        <nav aria-label="Mobile">
          <MobileItems items={items} prefix={prefix} />
        </nav>
        <div className="mobile-menu__account">{accountLink}</div>
      </div>
    </div>
  );
}

/** The account link, or (configured, signed in) a button opening the account menu: orders, addresses, payment methods, log out. */
export function AccountMenu({ customerName, withMenu, logoutNonce }: { customerName: string | null; withMenu: boolean; logoutNonce: string | null }) {
  const [opened, setOpened] = usePageState<true>();
  const open = opened === true;
  const setOpen = (value: boolean) => setOpened(value ? true : null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const id = useId();
  useEffect(() => {
    if (!open) return;
    const outside = (e: Event) => {
      if (!wrapRef.current?.contains(e.target as Node)) setOpen(false);
    };
    const keys = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        setOpen(false);
        toggleRef.current?.focus();
      } else if (wrapRef.current?.contains(document.activeElement)) moveFocus(e, document.getElementById(id));
    };
    document.addEventListener("pointerdown", outside);
    document.addEventListener("focusin", outside);
    document.addEventListener("keydown", keys);
    const stopOverlays = onCloseAllOverlays(() => setOpen(false));
    return () => {
      stopOverlays();
      document.removeEventListener("pointerdown", outside);
      document.removeEventListener("focusin", outside);
      document.removeEventListener("keydown", keys);
    };
  });
  const label = customerName ? `Hi, ${customerName}` : "Account";
  if (!withMenu || !customerName || !logoutNonce) {
    return (
      <a className="account-link" href="/my-account/">
        {label}
      </a>
    );
  }
  return (
    <div className={`account-menu${open ? " is-open" : ""}`} ref={wrapRef}>
      <button
        ref={toggleRef}
        type="button"
        className="account-link"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => {
          if (!open) closeAllOverlays();
          setOpen(!open);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            e.preventDefault();
            setOpen(true);
            requestAnimationFrame(() => focusables(document.getElementById(id))[0]?.focus());
          }
        }}
      >
        {label}
      </button>
      <ul id={id} className="account-menu__list" hidden={!open}>
        <li>
          <a href="/my-account/">Dashboard</a>
        </li>
        <li>
          <a href="/my-account/orders/">Orders</a>
        </li>
        <li>
          <a href="/my-account/edit-address/">Addresses</a>
        </li>
        <li>
          <a href="/my-account/payment-methods/">Payment methods</a>
        </li>
        <li>
          <form method="post" action="/my-account/">
            <input type="hidden" name="intent" value="logout" />
            <input type="hidden" name="_wpnonce" value={logoutNonce} />
            <button type="submit">Log out</button>
          </form>
        </li>
      </ul>
    </div>
  );
}
