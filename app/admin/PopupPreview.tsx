/**
 * The popup editor's live preview (docs/contract/admin.md 'Popup'): the storefront's own dialog component and styles
 * (app/components/popups/PopupDialog.tsx, popup-styles.ts — React and core/domain only, so the admin bundle takes
 * nothing else of the storefront) drawn over a stand-in page, redrawn as the owner types. It is `inert`: a picture,
 * not a second form (no focus, no clicks, hidden from screen readers, which read the fields themselves).
 */
import { PopupDialog } from "../components/popups/PopupDialog.tsx";
import { POPUP_CSS } from "../components/popups/popup-styles.ts";
import type { PagePopup } from "../../core/domain/popups/settings.ts";

const ignore = () => {};

export function PopupPreview({ popup, caption }: { popup: PagePopup; caption: string }) {
  return (
    <figure className="admin-popup-preview-figure">
      <figcaption className="admin-preview-label">{caption}</figcaption>
      <style>{POPUP_CSS}</style>
      <div className="admin-popup-preview" inert>
        <div className="admin-popup-preview-page" aria-hidden="true">
          <span />
          <span />
          <span />
        </div>
        <PopupDialog popup={popup} opener={null} top={false} focusDelayMs={0} onClose={ignore} />
      </div>
    </figure>
  );
}
