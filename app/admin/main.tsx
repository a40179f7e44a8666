/**
 * The admin's browser entry (decision 0024), built apart from the storefront by scripts/build-admin.ts into
 * {build}/client/wp-admin-app/admin.js: React, the WordPress components and the screens in one file that only
 * /wp-admin/ pages load. The server renders the frame and `#admin-screen` with the screen to open and the REST
 * nonce; this renders the screen into it.
 */
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { setUpApi } from "./api.ts";
import type { AdminScreen } from "./screens.ts";
import ProductsScreen from "./ProductsScreen.tsx";
import ProductEditScreen from "./ProductEditScreen.tsx";
import NewProductScreen from "./NewProductScreen.tsx";
import AttributesScreen from "./AttributesScreen.tsx";
import AttributeTermsScreen from "./AttributeTermsScreen.tsx";
import MenusScreen from "./MenusScreen.tsx";
import { ProductExportScreen, ProductImportScreen } from "./ImportExport.tsx";
import OrdersScreen from "./OrdersScreen.tsx";
import OrderScreen from "./OrderScreen.tsx";
import PackingSlipScreen from "./PackingSlipScreen.tsx";
import DashboardScreen from "./DashboardScreen.tsx";
import CustomersScreen from "./CustomersScreen.tsx";
import CustomerScreen from "./CustomerScreen.tsx";
import NewCustomerScreen from "./NewCustomerScreen.tsx";
import { marketingScreen } from "./marketing.tsx";
import { peopleScreen } from "./people.tsx";
import { contentScreen } from "./content.tsx";
import { discountsScreen } from "./discounts.tsx";
import { popupsScreen } from "./popups.tsx";
import { settingsScreen } from "./settings.tsx";
import { outboxScreen } from "./EmailOutbox.tsx";

const mount = document.getElementById("admin-screen");
if (mount) {
  const screen = JSON.parse(mount.dataset.screen ?? "{}") as AdminScreen;
  setUpApi(mount.dataset.nonce ?? "");
  const content =
    screen.name === "products" ? (
      <ProductsScreen />
    ) : screen.name === "product" ? (
      <ProductEditScreen id={screen.id} />
    ) : screen.name === "product-new" ? (
      <NewProductScreen />
    ) : screen.name === "attributes" ? (
      <AttributesScreen />
    ) : screen.name === "attribute" ? (
      <AttributeTermsScreen id={screen.id} />
    ) : screen.name === "menus" ? (
      <MenusScreen />
    ) : screen.name === "product-import" ? (
      <ProductImportScreen />
    ) : screen.name === "product-export" ? (
      <ProductExportScreen />
    ) : screen.name === "orders" ? (
      <OrdersScreen />
    ) : screen.name === "order" ? (
      <OrderScreen id={screen.id} />
    ) : screen.name === "packing-slip" ? (
      <PackingSlipScreen id={screen.id} />
    ) : screen.name === "dashboard" ? (
      <DashboardScreen />
    ) : screen.name === "customers" ? (
      <CustomersScreen canCreate={screen.canCreate} canDelete={screen.canDelete} />
    ) : screen.name === "customer" ? (
      <CustomerScreen id={screen.id} canDelete={screen.canDelete} />
    ) : screen.name === "customer-new" ? (
      <NewCustomerScreen />
    ) : (
      (marketingScreen(screen) ??
      popupsScreen(screen) ??
      settingsScreen(screen) ??
      outboxScreen(screen) ??
      discountsScreen(screen) ??
      peopleScreen(screen) ??
      contentScreen(screen))
    );
  if (content) {
    mount.removeAttribute("aria-busy");
    createRoot(mount).render(<StrictMode>{content}</StrictMode>);
  }
}
