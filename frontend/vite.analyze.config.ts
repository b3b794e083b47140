// `npx vite build --config vite.analyze.config.ts --outDir /tmp/x`: writes chunk-report.txt, each chunk's packages
// (gzip of their code together) and modules (rendered bytes, gzip alone).
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
        // Per package (or source folder), gzip of its modules' code together (before minification: about 1.5 times
        // what it adds to the minified chunk).
        const packages = new Map<string, string[]>();
        for (const [id, info] of mods) {
          const name = id.includes("node_modules/")
            ? (id.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? id)
            : id.replace(/^.*\/(frontend|contracts)\/src\/([^/]+\/)?.*$/, "$1/$2");
          packages.set(name, [...(packages.get(name) ?? []), info.code ?? ""]);
        }
        const byPackage = [...packages].map(
          ([name, codes]) => [name, gzipSync(codes.join("\n")).length] as const,
        );
        for (const [name, gzip] of byPackage.sort((a, b) => b[1] - a[1]))
          lines.push(`  package\t${gzip}\t${name}`);
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
