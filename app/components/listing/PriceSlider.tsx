/**
 * The price filter (docs/contract/storefront.md §2 'Price filter', §5 'Listings and popups'): plain min_price / max_price
 * inputs without JavaScript; with it, a two-handle slider with 'from' and 'to' labels whose
 * values are clamped and aligned to the step by the domain's price maths.
 */
import { useRef, useState } from "react";
import { initialPriceRange, priceSliderKey, setPriceHandle, type PriceHandle, type PriceRange } from "../../../core/domain/catalog/price-filter.ts";
import { formatMoney } from "../../lib/format.ts";
import { useHydrated } from "../../lib/use-hydrated.ts";

interface Props {
  /** Display units (whole dollars). */
  bounds: { min: number; max: number; step?: number };
  current: { min: number | null; max: number | null };
  action: string;
  /** Other address parameters the filter keeps. */
  keep: [string, string][];
}

export function PriceSlider({ bounds, current, action, keep }: Props) {
  const enhanced = useHydrated();
  const [range, setRange] = useState<PriceRange>(() => initialPriceRange(bounds, current));
  const track = useRef<HTMLDivElement>(null);
  const dragging = useRef<PriceHandle | null>(null);

  const span = bounds.max - bounds.min || 1;
  const pct = (v: number) => ((v - bounds.min) / span) * 100;
  const valueAt = (clientX: number) => {
    const rect = track.current!.getBoundingClientRect();
    // Right-to-left mode mirrors the track: the minimum sits at the right edge.
    const rtl = getComputedStyle(track.current!).direction === "rtl";
    return bounds.min + ((rtl ? rect.right - clientX : clientX - rect.left) / (rect.width || 1)) * span;
  };
  const onPointerDown = (e: React.PointerEvent<HTMLDivElement>) => {
    const value = valueAt(e.clientX);
    const handle: PriceHandle = Math.abs(value - range.from) <= Math.abs(value - range.to) && !(value > range.to) ? "from" : "to";
    dragging.current = handle;
    track.current!.setPointerCapture(e.pointerId);
    setRange((r) => setPriceHandle(r, handle, value, bounds));
    (track.current!.querySelector(`[data-handle="${handle}"]`) as HTMLElement | null)?.focus();
  };
  const onPointerMove = (e: React.PointerEvent<HTMLDivElement>) => {
    const handle = dragging.current;
    if (handle) setRange((r) => setPriceHandle(r, handle, valueAt(e.clientX), bounds));
  };
  const onPointerUp = () => (dragging.current = null);
  const onKeyDown = (handle: PriceHandle) => (e: React.KeyboardEvent) => {
    // Right to left, the left arrow moves the handle left: towards the maximum, as a native range input does.
    const rtl = getComputedStyle(e.currentTarget).direction === "rtl";
    const key = rtl && e.key === "ArrowLeft" ? "ArrowRight" : rtl && e.key === "ArrowRight" ? "ArrowLeft" : e.key;
    const next = priceSliderKey(range, handle, key, bounds);
    if (next) {
      e.preventDefault();
      setRange(next);
    }
  };
  const money = (v: number) => formatMoney(Math.round(v * 100));

  return (
    <form method="get" action={action} className="widget_price_filter price_slider_wrapper">
      {keep.map(([k, v], i) => (
        <input key={`${k}-${i}`} type="hidden" name={k} value={v} />
      ))}
      {enhanced ? (
        <>
          <div
            className="price_slider"
            ref={track}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
          >
            <div className="price_slider_range" style={{ insetInlineStart: `${pct(range.from)}%`, width: `${pct(range.to) - pct(range.from)}%` }} />
            {(["from", "to"] as const).map((h) => (
              <span
                key={h}
                data-handle={h}
                className={`price_slider_handle handle-${h}`}
                role="slider"
                tabIndex={0}
                aria-label={h === "from" ? "Minimum price" : "Maximum price"}
                aria-valuemin={h === "from" ? bounds.min : range.from}
                aria-valuemax={h === "from" ? range.to : bounds.max}
                aria-valuenow={range[h]}
                aria-valuetext={money(range[h])}
                style={{ insetInlineStart: `${pct(range[h])}%` }}
                onKeyDown={onKeyDown(h)}
              />
            ))}
          </div>
          <input type="hidden" name="min_price" value={range.from} />
          <input type="hidden" name="max_price" value={range.to} />
        </>
      ) : (
        <div className="price_inputs">
          <label>
            Min price{" "}
            <input type="number" name="min_price" min={bounds.min} max={bounds.max} step={bounds.step ?? 1} defaultValue={current.min ?? bounds.min} />
          </label>
          <label>
            Max price{" "}
            <input type="number" name="max_price" min={bounds.min} max={bounds.max} step={bounds.step ?? 1} defaultValue={current.max ?? bounds.max} />
          </label>
        </div>
      )}
      <div className="price_slider_amount">
        <button type="submit" className="button">
          Filter
        </button>
        <div className="price_label">
          From: <span className="from">{money(range.from)}</span> — To: <span className="to">{money(range.to)}</span>
        </div>
      </div>
    </form>
  );
}
