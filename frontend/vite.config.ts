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

// The server serves the page at every route and the script packs from /packs/ (seed spec, section 9).
export default defineConfig(({ command }) => ({
  base: command === "build" ? "/packs/" : "/",
  plugins: [catalogueTypes(), tanstackRouter({ target: "react", autoCodeSplitting: true }), react()],
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
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across releases.
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "mantine", test: /node_modules[\\/]@mantine[\\/]/ },
            { name: "vendor", test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
}));
