const digitsOf = new Map<string, number>();

/**
 * Decimal places of a currency's minor unit (2 for UAH and EUR, 0 for JPY), as Intl knows it: asked once per currency
 * (a formatter costs about a millisecond on a phone, and a page or a report formats hundreds of amounts). A code Intl
 * does not know throws a RangeError each time.
 */
export function minorDigits(currency: string): number {
  let digits = digitsOf.get(currency);
  if (digits === undefined) {
    digits =
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2;
    digitsOf.set(currency, digits);
  }
  return digits;
}
