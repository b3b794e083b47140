// `npx vite build --config vite.analyze.config.ts --outDir /tmp/x`: prints each chunk's biggest modules (rendered bytes).
import { gzipSync } from "node:zlib";
import { defineConfig, mergeConfig, type Plugin } from "vite";
import base from "./vite.config.ts";

function report(): Plugin {
  return {
    name: "skyward-chunk-report",
    generateBundle(_options, bundle) {
      const lines: string[] = [];
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== "chunk") continue;
        lines.push(
          `== ${chunk.fileName} ${chunk.code.length} imports=${chunk.imports.join(",")} dyn=${chunk.dynamicImports.length}`,
        );
        const mods = Object.entries(chunk.modules).sort((a, b) => b[1].renderedLength - a[1].renderedLength);
        for (const [id, info] of mods.slice(0, 3000))
          lines.push(
            `  ${info.renderedLength}\t${info.code ? gzipSync(info.code).length : 0}\t${id.replace(/.*node_modules\//, "nm:")}`,
          );
      }
      this.emitFile({ type: "asset", fileName: "chunk-report.txt", source: lines.join("\n") });
    },
  };
}

export default defineConfig((env) => {
  const config = typeof base === "function" ? base(env) : base;
  return mergeConfig(config, { plugins: [report()] });
});
