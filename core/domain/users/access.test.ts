import { describe, expect, it } from "vitest";
import { canDeleteUser, canEditUser, plainText } from "./access.ts";

const admin = { id: 1, role: "administrator" };
const manager = { id: 2, role: "shop_manager" };
const manager2 = { id: 3, role: "shop_manager" };
const customer = { id: 4, role: "customer" };
const customer2 = { id: 5, role: "customer" };

describe("canEditUser", () => {
  it("lets anyone edit themselves and nobody else without edit_users", () => {
    for (const who of [admin, manager, customer]) expect(canEditUser(who, who)).toBe(true);
    expect(canEditUser(customer, customer2)).toBe(false);
    expect(canEditUser(null, customer)).toBe(false);
  });
  it("lets a shop manager edit customers only, an administrator anyone", () => {
    expect(canEditUser(manager, customer)).toBe(true);
    expect(canEditUser(manager, manager2)).toBe(false);
    expect(canEditUser(manager, admin)).toBe(false);
    for (const target of [manager, customer, { id: 9, role: "administrator" }]) expect(canEditUser(admin, target)).toBe(true);
  });
  it("gives an unknown role nothing but itself", () => {
    expect(canEditUser({ id: 7, role: "editor" }, customer)).toBe(false);
  });
});

describe("canDeleteUser", () => {
  it("is for administrators only (shop managers have no delete_users)", () => {
    expect(canDeleteUser(admin, customer)).toBe(true);
    expect(canDeleteUser(admin, manager)).toBe(true);
    expect(canDeleteUser(manager, customer)).toBe(false);
    expect(canDeleteUser(customer, customer)).toBe(false);
    expect(canDeleteUser(null, customer)).toBe(false);
  });
});

describe("plainText", () => {
  it("drops tags and control characters and folds spaces", () => {
    expect(plainText("  <b>Ada</b>\u0000 \n Lovelace <script>x")).toBe("Ada Lovelace x");
    expect(plainText("Zoë  O'Brien")).toBe("Zoë O'Brien");
  });
});
