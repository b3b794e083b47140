import { mkdir, mkdtemp, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it, jest } from "@jest/globals";
import type { Page } from "playwright-core";
import { isoInDays, signInAsAgent } from "./flows.ts";
import { browserAppSuite } from "./harness.ts";

// Issue 27, item 5: the README's pictures of the search results and the booking form at 1280 px and at 390 px, made
// here. SKYWARD_DOCS_SHOTS=1 writes them into docs/ (then committed); otherwise into a temporary folder, checked the
// same way, so the suite never leaves the work tree changed.
const suite = browserAppSuite({ seedDemo: true });
jest.setTimeout(300_000);

const DOCS = fileURLToPath(new URL("../../docs/", import.meta.url));

/** The PNG's width and height from its IHDR chunk. */
async function pngSize(path: string): Promise<{ width: number; height: number; bytes: number }> {
  const png = await readFile(path);
  expect(png.subarray(1, 4).toString("latin1")).toBe("PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), bytes: png.length };
}

async function shoot(page: Page, folder: string, name: string, width: number, scroll = 0): Promise<void> {
  const path = join(folder, `${name}.png`);
  await page.evaluate((y) => window.scrollTo(0, Math.max(0, y)), scroll);
  await page.screenshot({ path, scale: "css", animations: "disabled", caret: "hide" });
  const size = await pngSize(path);
  expect({ name, width: size.width }).toEqual({ name, width });
  // Small enough for a README: a screenful each, not a whole page.
  expect(size.bytes).toBeLessThan(400_000);
}

describe("the README's screenshots (item 5)", () => {
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const)
    it(`shows the search results and a booking form at ${width} px`, async () => {
      const folder = process.env.SKYWARD_DOCS_SHOTS ? DOCS : await mkdtemp(join(tmpdir(), "skyward-shots-"));
      await mkdir(folder, { recursive: true });
      const { page } = suite.session;
      await page.setViewportSize({ width, height });
      await signInAsAgent(page);
      await page.goto(`/search?from=KBP&to=WAW&depart=${isoInDays(21)}`);
      await page.getByTestId("results-count").waitFor();
      await page.getByRole("article").nth(2).waitFor();
      await page.waitForLoadState("networkidle");
      // On a phone the form fills the first screenful: the picture starts at the results.
      const top =
        width < 600
          ? await page.getByTestId("results-count").evaluate((el) => el.getBoundingClientRect().top)
          : 0;
      await shoot(page, folder, `search-results-${width}`, width, top - 140);
      await page.locator("article [data-fare-id] button.mantine-Button-root").first().click();
      await page.getByRole("heading", { name: "Passengers and contacts" }).waitFor();
      await page.waitForLoadState("networkidle");
      await shoot(page, folder, `booking-form-${width}`, width);
      expect(suite.session.problems).toEqual([]);
    });
});
