import type { Page } from "playwright-core";

/**
 * Measures, in the page, whether a screen fits its viewport (issue 27, items 1 and 2). Each finding names the element
 * and its text, so a failing test says what is cut and where.
 */

/** How far the page itself scrolls sideways, in CSS pixels (0: it fits its width). */
export const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/**
 * What does not fit: the page scrolling sideways; visible elements reaching past the viewport's sides (outside any box
 * that scrolls sideways on its own); text cut by a box that hides its overflow; a box that scrolls sideways while
 * holding something other than a table (a navigation that must be scrolled to find a screen); and a table that
 * scrolls inside itself without keeping its first column in view.
 */
export async function unfit(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const width = document.documentElement.clientWidth;
    const overflow = document.documentElement.scrollWidth - width;
    if (overflow > 0) found.push(`the page scrolls sideways by ${overflow} px`);
    const describe = (element: Element) =>
      `${element.tagName.toLowerCase()}${element.getAttribute("aria-label") ? `[${element.getAttribute("aria-label")}]` : ""}: "${(element.textContent ?? "").trim().replace(/\s+/g, " ").slice(0, 60)}"`;
    const shown = (element: HTMLElement) => {
      if (element.closest("[aria-hidden='true'], [hidden], script, style, svg, [data-fit-ignore]"))
        return false;
      const style = getComputedStyle(element);
      if (style.display === "none" || style.visibility === "hidden" || style.opacity === "0") return false;
      // Screen-reader-only texts are 1 px boxes by design.
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1;
    };
    const scrolls = (style: CSSStyleDeclaration) => ["auto", "scroll"].includes(style.overflowX);
    const reported = new Set<Element>();
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      if (!shown(element)) continue;
      const style = getComputedStyle(element);
      const text = (element.textContent ?? "").trim();
      // Text cut off by its own box.
      const hides = ["hidden", "clip"].includes(style.overflowX) || style.textOverflow === "ellipsis";
      if (hides && text && element.scrollWidth > element.clientWidth + 1 && element.clientWidth > 0) {
        found.push(`cut: ${describe(element)} (${element.scrollWidth} px in ${element.clientWidth} px)`);
        reported.add(element);
      }
      // A box that scrolls sideways: a table may (with its first column kept), nothing else may.
      if (scrolls(style) && element.scrollWidth > element.clientWidth + 1 && element.clientHeight > 0) {
        const table = element.querySelector("table");
        if (!table) found.push(`scrolls sideways: ${describe(element)}`);
        else {
          const first = table.querySelector("tr > :first-child");
          if (first && getComputedStyle(first).position !== "sticky")
            found.push(`a table scrolls without keeping its first column: ${describe(table)}`);
        }
      }
      // Past the viewport's sides, unless a box between it and the page scrolls (it is reachable there).
      const box = element.getBoundingClientRect();
      if (box.right > width + 1 || box.left < -1) {
        let parent = element.parentElement;
        let inScroller = false;
        while (parent && parent !== document.body) {
          if (scrolls(getComputedStyle(parent))) {
            inScroller = true;
            break;
          }
          parent = parent.parentElement;
        }
        if (inScroller) continue;
        // One finding per branch: the outermost element sticking out.
        if (element.parentElement && reported.has(element.parentElement)) {
          reported.add(element);
          continue;
        }
        reported.add(element);
        found.push(
          `past the viewport (${Math.round(box.left)}..${Math.round(box.right)} of ${width}): ${describe(element)}`,
        );
      }
    }
    return found;
  });
}
