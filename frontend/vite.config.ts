import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { writeCatalogueTypes } from "./scripts/catalogue-types.mjs";

/** Keeps src/locales/catalogue.gen.ts (the `t()` key types) in step with the catalogue files. */
function catalogueTypes(): Plugin {
  return {
    name: "skyward-catalogue-types",
    buildStart: () => writeCatalogueTypes(),
    configureServer(server) {
      const regenerate = (file: string) => {
        if (/[\\/]locales[\\/]en[\\/][^\\/]+\.json$/.test(file)) writeCatalogueTypes();
      };
      server.watcher.on("add", regenerate).on("unlink", regenerate);
    },
  };
}

/** Writes `.br` and `.gz` beside each text asset: the server sends them as they are, at the best ratio. */
function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "skyward-precompress",
    apply: "build",
    configResolved: (config) => {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const assets = join(outDir, "assets");
      for (const file of readdirSync(assets)) {
        if (!/\.(js|css|svg|json|html|txt)$/.test(file)) continue;
        const content = readFileSync(join(assets, file));
        if (content.length < 1024) continue; // below the size where compression pays
        writeFileSync(
          join(assets, `${file}.br`),
          brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
        writeFileSync(join(assets, `${file}.gz`), gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * Mantine's styles per component rather than the whole library (295 KB) on every page: in the build, each component's
 * class-name module brings its own sheet (`@mantine/core/styles/<Name>.css`), so a sheet lands in the CSS of the chunk
 * that uses the component, after the sheets of the components it is built on; the app's import of the whole library
 * keeps only the base (reset, variables, global classes). The dev server pre-bundles Mantine and keeps it whole.
 */
function mantineStylesPerComponent(): Plugin {
  const WHOLE = "@mantine/core/styles.css";
  const BASE = "\0skyward-mantine-base.css.js";
  return {
    name: "skyward-mantine-styles-per-component",
    apply: "build",
    enforce: "pre",
    resolveId: (source) => (source === WHOLE ? BASE : null),
    load: (id) =>
      id === BASE
        ? ["baseline", "default-css-variables", "global"]
            .map((base) => `import "@mantine/core/styles/${base}.css";`)
            .join("\n")
        : null,
    transform(code, id) {
      const component = id.match(/[\\/]@mantine[\\/]core[\\/]esm[\\/].*[\\/](\w+)\.module\.mjs$/)?.[1];
      return component
        ? { code: `import "@mantine/core/styles/${component}.css";\n${code}`, map: null }
        : null;
    },
  };
}

/**
 * The entry chunk is a few bytes, `import {t} from "./shell-….js"; await t();` (the shell group holds the app): written
 * into the page rather than fetched, it saves every first load a request. The server allows it by its hash in the
 * page's Content-Security-Policy (scripts/src/page-scripts.ts). An entry that grows past that stays a file.
 */
function inlineEntry(): Plugin {
  let base = "/";
  return {
    name: "skyward-inline-entry",
    apply: "build",
    configResolved: (config) => {
      base = config.base;
    },
    transformIndexHtml: {
      order: "post",
      handler(html, { chunk }) {
        if (
          !chunk ||
          chunk.code.length > 1024 ||
          chunk.dynamicImports.length > 0 ||
          chunk.code.includes("import.meta")
        )
          return html;
        // The chunk's imports are relative to its own file; the page's are absolute.
        let code = chunk.code.trim();
        for (const file of chunk.imports)
          code = code.replaceAll(`./${file.slice(file.lastIndexOf("/") + 1)}`, `${base}${file}`);
        const tag = `<script type="module" crossorigin src="${base}${chunk.fileName}"></script>`;
        if (!html.includes(tag) || /["'`]\.\.?\//.test(code) || code.includes("</"))
          throw new Error(`inline-entry: cannot write ${chunk.fileName} into the page`);
        return html.replace(tag, `<script type="module">${code}</script>`);
      },
    },
  };
}

// The server serves the page at every route and the script packs from /packs/ (seed spec, section 9).
export default defineConfig(({ command }) => ({
  base: command === "build" ? "/packs/" : "/",
  plugins: [
    catalogueTypes(),
    tanstackRouter({ target: "react", autoCodeSplitting: true }),
    react(),
    mantineStylesPerComponent(),
    inlineEntry(),
    precompress(),
  ],
  server: {
    proxy: {
      // `vite` serves the page and the modules; every API call goes to a running Skyward (npm run dev).
      "^/(?!@|src/|node_modules/|favicon\\.svg)": {
        target: process.env.SKYWARD_URL ?? "http://127.0.0.1:3000",
        bypass: (req) => (req.headers.accept?.includes("text/html") ? req.url : undefined),
      },
    },
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No public source maps: production answers no one a readable copy of the source.
    sourcemap: false,
    // dist/.vite/manifest.json (not served): the server reads which chunks and sheets each route's page needs and
    // preloads them with the page (scripts/src/page-preloads.ts).
    manifest: true,
    rolldownOptions: {
      // Building a zod schema has no side effect: a module imported for one constant (ONE_TIME_CODE) or one schema
      // no longer brings every schema beside it, and zod with them, into the page that imports it.
      treeshake: { manualPureFunctions: ["z"] },
      // Inlining the small shared chunks below needs no entry to keep its exports.
      preserveEntrySignatures: false,
      output: {
        // What the first page needs is one chunk (React with the rest of the static graph) rather than dozens of
        // requests; a separate React chunk would cache longer but costs every first page a request. What only some
        // screens use (date pickers, charts, state machines, icons, schemas) splits with their routes.
        codeSplitting: {
          groups: [
            { name: "shell", tags: ["$initial"], priority: 1 },
            // The session check's schemas with classic zod (every signed-in page parses its session with them, the
            // sign-in form checks with zod too): one chunk that the screens' own chunks import rather than a copy
            // of zod in each.
            {
              name: "schemas",
              test: /[\\/]src[\\/]lib[\\/]lazy-schemas\.ts$|[\\/]contracts[\\/]src[\\/](account|errors|position|ids|metadata)\.ts$|node_modules[\\/]zod[\\/]/,
              // Only these: the zod-free modules they import (ONE_TIME_CODE) go with their pages, so the sign-in page
              // (zod/mini forms) loads no classic zod.
              includeDependenciesRecursively: false,
            },
          ],
          // The component pieces a route shares with others (inputs, alerts, icons, floating-ui, XState since the
          // header menus load on demand) are copied into each route's chunk rather than fetched one by one: a first
          // page costs a handful of requests, not twenty. (Source size, before minification.)
          experimentalInlineCommonChunks: { maxSize: 600 * 1024 },
        },
      },
    },
  },
}));
