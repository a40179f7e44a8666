/**
 * Content (docs/contract/admin.md 'Reviews & comments', 'Live scores', 'Pages and posts', 'Messages'): the screens
 * main.tsx renders for moderation, the live scores, pages and posts and the contact messages, kept here so main.tsx
 * only asks this file.
 */
import type { AdminScreen } from "./screens.ts";
import CommentsScreen from "./CommentsScreen.tsx";
import LiveScreen from "./LiveScreen.tsx";
import MessagesScreen from "./MessagesScreen.tsx";
import ContentListScreen from "./ContentListScreen.tsx";
import ContentEditScreen from "./ContentEditScreen.tsx";

export function contentScreen(screen: AdminScreen) {
  if (screen.name === "comments") return <CommentsScreen />;
  if (screen.name === "live") return <LiveScreen />;
  if (screen.name === "messages") return <MessagesScreen />;
  if (screen.name === "content-list") return <ContentListScreen kind={screen.kind} />;
  if (screen.name === "edit-content") return <ContentEditScreen kind={screen.kind} id={screen.id} />;
  return null;
}
