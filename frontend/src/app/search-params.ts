/**
 * Search values stay text unless they are JSON objects, arrays or quoted strings: the router's default reads
 * `?locator=123456` as a number and `?locator=012345` as 12345. Screens coerce numbers with zod themselves.
 */
export function parseSearchValue(value: string): unknown {
  if (!/^[[{"]/.test(value)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** The router's own reader turns `123456` into a number before any parser sees it: this one keeps text. */
export function parseSearch(searchStr: string): Record<string, unknown> {
  const query: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(searchStr)) {
    const parsed = parseSearchValue(value);
    const prior = query[key];
    query[key] = prior === undefined ? parsed : Array.isArray(prior) ? [...prior, parsed] : [prior, parsed];
  }
  return query;
}

/** Throws for text `parseSearchValue` keeps as it is: only such strings are written without quotes. */
export function jsonLooking(value: string): unknown {
  if (!/^[[{"]/.test(value)) throw new Error("plain text");
  return JSON.parse(value);
}
