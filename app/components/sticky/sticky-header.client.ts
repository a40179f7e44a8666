/**
 * The sticky header's browser half (docs/contract/sticky-quick-view.md §1): measures the header, keeps its place
 * with a placeholder of the same height while it is fixed (so nothing below it moves), and applies the state
 * core/domain/layout/sticky-header.ts decides on each scroll. Mode and threshold are measured again
 * `reevaluateMs` after the last resize (§9 'Timings': 300 ms).
 */
// Loaded with this chunk, before it applies any class: pages without a sticky mode get no extra stylesheet.
import "./sticky-header.css";
import { nextStickyState, RELEASED, stickyDevice, stickyMode, type StickyMode, type StickyState } from "../../../core/domain/layout/sticky-header.ts";

export interface StickyHeaderSettings {
  desktop: string;
  mobile: string;
  scrollDelta: number;
  reevaluateMs: number;
  break_point: number;
}

const STATE_CLASSES = ["ast-header-sticked", "ast-header-sticky-hidden"];
const modeClass = (mode: StickyMode) => `ast-sticky-${mode}`;

export function mountStickyHeader(header: HTMLElement, settings: StickyHeaderSettings): () => void {
  const placeholder = document.createElement("div");
  placeholder.className = "ast-sticky-header-placeholder";
  placeholder.setAttribute("aria-hidden", "true");
  placeholder.hidden = true;
  header.before(placeholder);

  let mode: StickyMode = "none";
  let threshold = 0;
  let state: StickyState = { ...RELEASED, anchorY: window.scrollY };
  let frame = 0;

  const apply = () => {
    header.classList.toggle("ast-header-sticked", state.active);
    header.classList.toggle("ast-header-sticky-hidden", state.active && state.hidden);
    header.dataset.sticky = state.active ? (state.hidden ? "hidden" : "active") : "released";
    placeholder.hidden = !state.active;
    placeholder.style.height = state.active ? `${threshold}px` : "";
    // What the fixed header covers at the top of the viewport: other sticky bars (the mobile listing toolbar) sit below it.
    const covered = state.active && !state.hidden ? header.offsetHeight : 0;
    document.documentElement.style.setProperty("--ast-sticky-header-covered", `${covered}px`);
  };

  /** Mode for this width and the header's height in the flow (measured released, in the same frame: no paint between). */
  const measure = () => {
    header.classList.remove(...STATE_CLASSES, modeClass(mode));
    mode = stickyMode(settings[stickyDevice(window.innerWidth, settings.break_point)]);
    header.classList.add(modeClass(mode));
    header.dataset.stickyMode = mode;
    threshold = header.offsetHeight;
    state = nextStickyState({ ...RELEASED, anchorY: window.scrollY }, { mode, scrollY: window.scrollY, threshold, delta: settings.scrollDelta });
    apply();
  };

  const onScroll = () => {
    if (frame) return;
    frame = requestAnimationFrame(() => {
      frame = 0;
      const next = nextStickyState(state, { mode, scrollY: window.scrollY, threshold, delta: settings.scrollDelta });
      if (next.active !== state.active || next.hidden !== state.hidden) {
        state = next;
        apply();
      } else state = next;
    });
  };

  let resizeTimer: ReturnType<typeof setTimeout> | undefined;
  const onResize = () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(measure, settings.reevaluateMs);
  };

  measure();
  window.addEventListener("scroll", onScroll, { passive: true });
  window.addEventListener("resize", onResize);
  return () => {
    window.removeEventListener("scroll", onScroll);
    window.removeEventListener("resize", onResize);
    clearTimeout(resizeTimer);
    cancelAnimationFrame(frame);
    header.classList.remove(...STATE_CLASSES, modeClass(mode));
    delete header.dataset.sticky;
    delete header.dataset.stickyMode;
    placeholder.remove();
    document.documentElement.style.removeProperty("--ast-sticky-header-covered");
  };
}
