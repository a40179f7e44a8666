/**
 * Content (docs/contract/admin.md 'Reviews & comments', 'Live scores'): the screens main.tsx renders for moderation
 * and the live scores, kept here so main.tsx only asks this file.
 */
import type { AdminScreen } from "./screens.ts";
import CommentsScreen from "./CommentsScreen.tsx";
import LiveScreen from "./LiveScreen.tsx";

export function contentScreen(screen: AdminScreen) {
  if (screen.name === "comments") return <CommentsScreen />;
  if (screen.name === "live") return <LiveScreen />;
  return null;
}
