/**
 * Staff (docs/contract/admin.md 'Staff'): the screens main.tsx renders for the staff users, kept here so main.tsx
 * only asks this file. The server opens them for administrators only (app/routes/wp-admin.server.ts).
 */
import type { AdminScreen } from "./screens.ts";
import StaffScreen from "./StaffScreen.tsx";
import StaffUserScreen from "./StaffUserScreen.tsx";

export function peopleScreen(screen: AdminScreen) {
  if (screen.name === "staff") return <StaffScreen />;
  if (screen.name === "staff-user") return <StaffUserScreen id={screen.id} />;
  return null;
}
