/**
 * Popups (docs/contract/admin.md 'Popups', 'Popup'): the screens main.tsx renders for the list and the editor, kept
 * here so main.tsx only asks this file.
 */
import type { AdminScreen } from "./screens.ts";
import PopupsScreen from "./PopupsScreen.tsx";
import PopupScreen from "./PopupScreen.tsx";

export function popupsScreen(screen: AdminScreen) {
  if (screen.name === "popups") return <PopupsScreen />;
  if (screen.name === "popup") return <PopupScreen id={screen.id} />;
  return null;
}
