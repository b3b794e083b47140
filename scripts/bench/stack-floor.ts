// `npm run bench -- stack-floor`: the least JavaScript a first page can ship on the front end's stack. Builds tiny
// apps with the production settings of Vite (React 19, Mantine 9, TanStack Router and Query, i18next, zod/mini), one
// library set at a time (then the whole stack with one library taken out or added, to price each), and prints each
// bundle's gzip and brotli sizes beside issue 27's first-load budget for /sign_in (170 KB as sent: brotli). No app
// code: what a set weighs here is the floor under any page that uses it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build, type PluginOption, type Rolldown } from "vite";

const BUDGET = 170 * 1024;

/** Each app's imports and what it renders: the stack grows one library set at a time. */
const APPS: { name: string; source: string }[] = [
  {
    name: "React 19 (react-dom), one heading",
    source: `import { createRoot } from "react-dom/client";
createRoot(document.getElementById("root")).render(<h1>Flight search</h1>);`,
  },
  {
    name: "+ TanStack Router and Query",
    source: `import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createRootRoute, createRouter, RouterProvider } from "@tanstack/react-router";
import { createRoot } from "react-dom/client";
const router = createRouter({ routeTree: createRootRoute({ component: () => <h1>Flight search</h1> }) });
createRoot(document.getElementById("root")).render(
  <QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider>,
);`,
  },
  {
    name: "React + Mantine (a title, a text input, a select, a button)",
    source: `import { Button, MantineProvider, Select, TextInput, Title } from "@mantine/core";
import { createRoot } from "react-dom/client";
createRoot(document.getElementById("root")).render(
  <MantineProvider>
    <Title>Flight search</Title><TextInput label="From" /><Select label="Cabin" data={["Economy"]} /><Button>Search</Button>
  </MantineProvider>,
);`,
  },
  {
    name: "the stack: Router, Query, Mantine, i18next, zod/mini, one form",
    source: `import { Button, MantineProvider, Select, TextInput, Title } from "@mantine/core";
import { QueryClient, QueryClientProvider, useQuery } from "@tanstack/react-query";
import { createRootRoute, createRoute, createRouter, Outlet, RouterProvider } from "@tanstack/react-router";
import i18next from "i18next";
import { initReactI18next, useTranslation } from "react-i18next";
import { createRoot } from "react-dom/client";
import * as z from "zod/mini";
void i18next.use(initReactI18next).init({ lng: "en", resources: { en: { translation: { title: "Flight search" } } } });
function Page() {
  const { t } = useTranslation();
  const offers = useQuery({ queryKey: ["offers"], queryFn: async () => (await fetch("/offers")).json() });
  return (
    <form>
      <Title>{t("title")}</Title><TextInput label="From" /><Select label="Cabin" data={["Economy"]} />
      <Button type="submit">{String(offers.data ?? "")}</Button>
    </form>
  );
}
const root = createRootRoute({ component: Outlet });
const search = z.object({ from: z.optional(z.string()), adults: z.optional(z.number()) });
const page = createRoute({ getParentRoute: () => root, path: "/", component: Page, validateSearch: search });
const router = createRouter({ routeTree: root.addChildren([page]) });
createRoot(document.getElementById("root")).render(
  <MantineProvider><QueryClientProvider client={new QueryClient()}><RouterProvider router={router} /></QueryClientProvider></MantineProvider>,
);`,
  },
];

/** The full stack's app, with one library taken out or one added: what each costs a first page on its own. */
const STACK = APPS[APPS.length - 1]?.source ?? "";
APPS.push(
  {
    name: "  the stack without zod/mini",
    source: STACK.replace(/^import \* as z from "zod\/mini";$/m, "")
      .replace(/^const search = z\.object.*$/m, "")
      .replace(", validateSearch: search", ""),
  },
  {
    name: "  the stack without i18next",
    source: STACK.replace(/^import i18next.*$/m, "")
      .replace(/^import \{ initReactI18next, useTranslation \}.*$/m, "")
      .replace(/^void i18next.*$/m, "")
      .replace("const { t } = useTranslation();", "const t = (key) => key;"),
  },
  {
    name: "  the stack + XState (a machine and useMachine)",
    source: `import { createMachine } from "xstate";\nimport { useMachine } from "@xstate/react";\n${STACK.replace(
      "const { t } = useTranslation();",
      `const { t } = useTranslation();\n  const [state, send] = useMachine(machine);`,
    )
      .replace(
        "function Page() {",
        `const machine = createMachine({ initial: "a", states: { a: { on: { GO: "b" } }, b: {} } });\nfunction Page() {`,
      )
      .replace(
        '<Button type="submit">',
        '<Button type="submit" onClick={() => send({ type: "GO" })} data-state={String(state.value)}>',
      )}`,
  },
  {
    name: "  the stack + @mantine/form (useForm)",
    source: `import { useForm } from "@mantine/form";\n${STACK.replace(
      "const { t } = useTranslation();",
      `const { t } = useTranslation();\n  const form = useForm({ initialValues: { from: "" } });`,
    ).replace('<TextInput label="From" />', '<TextInput label="From" {...form.getInputProps("from")} />')}`,
  },
);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function run(): Promise<void> {
  // Inside the front end's folder, so the apps resolve its packages exactly as the product does.
  const frontend = fileURLToPath(new URL("../../frontend/", import.meta.url));
  // The front end's own React plugin (a dependency of that workspace only).
  const pluginPath = createRequire(join(frontend, "package.json")).resolve("@vitejs/plugin-react");
  const { default: react } = (await import(pathToFileURL(pluginPath).href)) as {
    default: () => PluginOption;
  };
  const folder = await mkdtemp(join(frontend, ".stack-floor-"));
  try {
    console.log(
      `JS of a first page, minified, gzip and brotli (issue 27's /sign_in budget: ${kb(BUDGET)} brotli)`,
    );
    for (const app of APPS) {
      await writeFile(join(folder, "main.jsx"), app.source);
      const output = (await build({
        configFile: false,
        root: folder,
        logLevel: "silent",
        plugins: [react()],
        build: { write: false, rolldownOptions: { input: join(folder, "main.jsx") } },
      })) as Rolldown.RolldownOutput;
      const chunks = output.output.filter((file): file is Rolldown.OutputChunk => file.type === "chunk");
      const gzip = chunks.reduce((total, chunk) => total + gzipSync(chunk.code).length, 0);
      // As the server sends it: the build's .br files (quality 11), what a browser receives.
      const brotli = chunks.reduce(
        (total, chunk) =>
          total + brotliCompressSync(chunk.code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
        0,
      );
      console.log(
        `  ${app.name.padEnd(66)} ${kb(gzip).padStart(9)} gzip ${kb(brotli).padStart(9)} brotli  ${brotli <= BUDGET ? "under" : "OVER"} budget`,
      );
    }
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}
