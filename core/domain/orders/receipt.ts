/** What a receipt says about one line beyond its name: the same choice the cart and checkout showed. Pure. */
import type { BundleComponent } from "../catalog/product-kinds.ts";

/**
 * A variation's attributes or a download's option as the cart showed them; for a bundle, everything inside it
 * (its mandatory items and the ticked extras, with units per bundle), so the receipt lists exactly what was bought.
 */
export function lineReceiptDetails(line: { details: string; components: readonly Pick<BundleComponent, "name" | "unitsPerBundle">[] }): string {
  if (!line.components.length) return line.details;
  return `Contains: ${line.components.map((c) => `${c.name} × ${c.unitsPerBundle}`).join(", ")}`;
}
