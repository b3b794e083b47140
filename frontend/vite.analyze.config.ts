// `npx vite build --config vite.analyze.config.ts --outDir /tmp/x`: writes chunk-report.txt. First what each first
// page loads (the chunks its route needs, as the server preloads them) with their brotli bytes; then each chunk's
// packages, by the brotli bytes of their modules minified one by one and compressed together (within about 10 % of
// what they add to the chunk as sent), and its largest modules (rendered bytes, then minified and brotli alone).
import { brotliCompressSync, constants } from "node:zlib";
import { minifySync } from "rolldown/experimental";
import { defineConfig, mergeConfig, type Plugin, type Rolldown } from "vite";
import base from "./vite.config.ts";

const brotli = (code: string) =>
  brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;

function minified(id: string, code: string): string {
  try {
    return minifySync(id.replace(/\?.*$/, "").replace(/\.[cm]?[jt]sx?$|$/, ".js"), code).code;
  } catch {
    return code;
  }
}

/** A module's package (`@mantine/core`) or, for the product's own code, its folder (`frontend/features/`). */
function owner(id: string): string {
  return id.includes("node_modules/")
    ? (id.match(/.*node_modules\/((?:@[^/]+\/)?[^/]+)/)?.[1] ?? id)
    : id.replace(/^.*\/(frontend|contracts)\/src\/([^/]+\/)?.*$/, "$1/$2");
}

/** The first pages the budgets are about (issue 27), by the route chunk that names them. */
const PAGES = ["sign_in", "search", "bookings"];

function report(): Plugin {
  return {
    name: "skyward-chunk-report",
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (file): file is Rolldown.OutputChunk => file.type === "chunk",
      );
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const lines: string[] = [];
      for (const page of PAGES) {
        const route = chunks.find((chunk) => chunk.isDynamicEntry && chunk.name === page);
        const entry = chunks.find((chunk) => chunk.isEntry);
        if (!route || !entry) continue;
        const wanted = new Set<string>();
        const visit = (fileName: string) => {
          if (wanted.has(fileName)) return;
          wanted.add(fileName);
          for (const imported of byName.get(fileName)?.imports ?? []) visit(imported);
        };
        visit(entry.fileName);
        visit(route.fileName);
        const sizes = [...wanted].map(
          (fileName) => [fileName, brotli(byName.get(fileName)?.code ?? "")] as const,
        );
        const total = sizes.reduce((sum, [, size]) => sum + size, 0);
        lines.push(
          `page /${page}: ${total} bytes brotli (without its language catalogue) = ${sizes.map(([file, size]) => `${file} ${size}`).join(" + ")}`,
        );
      }
      for (const chunk of chunks) {
        lines.push(
          `== ${chunk.fileName} ${chunk.code.length} brotli=${brotli(chunk.code)} imports=${chunk.imports.join(",")} dyn=${chunk.dynamicImports.length}`,
        );
        const mods = Object.entries(chunk.modules)
          .filter(([, info]) => info.code)
          .map(([id, info]) => ({ id, rendered: info.renderedLength, code: minified(id, info.code ?? "") }))
          .sort((a, b) => b.code.length - a.code.length);
        const packages = new Map<string, string[]>();
        for (const mod of mods)
          packages.set(owner(mod.id), [...(packages.get(owner(mod.id)) ?? []), mod.code]);
        const byPackage = [...packages].map(([name, codes]) => [name, brotli(codes.join("\n"))] as const);
        for (const [name, size] of byPackage.sort((a, b) => b[1] - a[1]))
          lines.push(`  package\t${size}\t${name}`);
        for (const mod of mods.slice(0, 3000))
          lines.push(
            `  ${mod.rendered}\t${mod.code.length}\t${brotli(mod.code)}\t${mod.id.replace(/.*node_modules\//, "nm:")}`,
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
