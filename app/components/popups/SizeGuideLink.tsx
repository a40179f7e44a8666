/**
 * The product page's "Size guide" link, shown only when a popup on the page opens on it (its open_selector names
 * `#size-guide`, as the demo size guide's does): docs/contract/storefront.md §4 'Popups'.
 */
import { useRouteLoaderData } from "react-router";
import type { PopupPageData } from "../../../core/domain/popups/settings.ts";

export function SizeGuideLink({ hasSizes }: { hasSizes: boolean }) {
  const root = useRouteLoaderData("root") as { popups?: PopupPageData } | undefined;
  if (!hasSizes || !root?.popups?.popups.some((p) => p.display.open_selector.includes("#size-guide"))) return null;
  return (
    <p className="size-guide">
      <a href="#size-guide" aria-haspopup="dialog">
        Size guide
      </a>
    </p>
  );
}
