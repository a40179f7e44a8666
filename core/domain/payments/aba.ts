/**
 * The ABA routing-number checksum (US bank routing numbers): weights 3, 7, 1 repeated over the nine digits;
 * the weighted sum must be a multiple of 10. The browser form only checks '9 digits'; the server (and the
 * sandbox processor) also check this.
 */
export function isValidAbaRoutingNumber(routingNumber: string): boolean {
  if (!/^\d{9}$/.test(routingNumber)) return false;
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (routingNumber.charCodeAt(i) - 48) * weights[i % 3]!;
  return sum % 10 === 0;
}
