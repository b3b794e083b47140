import { createHash } from "node:crypto";

/**
 * The Content-Security-Policy sources that allow the page's inline scripts (the build writes the tiny entry into the
 * page, frontend/vite.config.ts): one `'sha256-…'` per inline script, so no other inline script runs.
 */
export function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
    (m) =>
      `'sha256-${createHash("sha256")
        .update(m[1] ?? "")
        .digest("base64")}'`,
  );
}
