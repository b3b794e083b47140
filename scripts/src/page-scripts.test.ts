import { createHash } from "node:crypto";
import { describe, expect, it } from "@jest/globals";
import { inlineScriptSources } from "./page-scripts.ts";

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text).digest("base64")}'`;

describe("inline script sources", () => {
  it("when the page has inline scripts, then each is allowed by its own hash and scripts with a src are left to 'self'", () => {
    const entry = 'import{t as e}from"/packs/assets/shell-A.js";await e();';
    const html = `<head><script type="module" crossorigin src="/packs/assets/x.js"></script></head>
      <body><script type="module">${entry}</script><script>
  window.x = 1;
</script></body>`;
    expect(inlineScriptSources(html)).toEqual([sha256(entry), sha256("\n  window.x = 1;\n")]);
  });

  it("when the page has no inline script, then nothing is added to the policy", () => {
    expect(inlineScriptSources('<script type="module" src="/packs/assets/index-A.js"></script>')).toEqual([]);
  });
});
