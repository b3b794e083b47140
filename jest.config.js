// One Jest run over every workspace; PostgreSQL is started once per run (infra/test/global-setup).
const swc = [
  "@swc/jest",
  {
    jsc: {
      parser: { syntax: "typescript", tsx: true },
      transform: { react: { runtime: "automatic" } },
      target: "es2022",
    },
    module: { type: "es6" },
  },
];
const base = {
  extensionsToTreatAsEsm: [".ts", ".tsx"],
  transform: { "^.+\\.(t|j)sx?$": swc },
  moduleNameMapper: { "^(\\.{1,2}/.*)\\.js$": "$1" },
};
const nodeProject = (name, extra = {}) => ({
  ...base,
  displayName: name,
  testEnvironment: "node",
  roots: [`<rootDir>/${name}`],
  testMatch: ["**/*.test.ts"],
  ...extra,
});

export default {
  globalSetup: "<rootDir>/infra/test/global-setup.ts",
  globalTeardown: "<rootDir>/infra/test/global-teardown.ts",
  maxWorkers: 2,
  // A worker whose heap has grown past this after a test file is replaced by a fresh one: over a whole run (268 files,
  // in-process apps, jsdom) one worker's heap outgrew Node's limit and crashed a jsdom suite (routes.test.tsx).
  workerIdleMemoryLimit: "1GB",
  testTimeout: 60_000,
  projects: [
    nodeProject("contracts"),
    nodeProject("infra"),
    nodeProject("command-service"),
    nodeProject("query-service"),
    nodeProject("projectors"),
    nodeProject("scripts"),
    {
      ...base,
      // Keeps `with { type: "json" }` on the translation catalogue imports, which Jest's ESM loader requires.
      transform: {
        "^.+\\.(t|j)sx?$": [
          swc[0],
          { ...swc[1], jsc: { ...swc[1].jsc, experimental: { keepImportAttributes: true } } },
        ],
      },
      displayName: "frontend",
      // The bundler's `import.meta.glob` of the catalogues becomes a synchronous read of the same files.
      moduleNameMapper: {
        ...base.moduleNameMapper,
        "^\\./catalogue-files\\.ts$": "<rootDir>/frontend/test/catalogue-files.ts",
        // Components import their library's styles; jsdom applies no CSS, so each is an empty module.
        "\\.css$": "<rootDir>/frontend/test/style-stub.ts",
      },
      testEnvironment: "jsdom",
      roots: ["<rootDir>/frontend/src"],
      testMatch: ["**/*.test.ts", "**/*.test.tsx"],
      setupFilesAfterEnv: ["<rootDir>/frontend/test/setup.ts"],
    },
    nodeProject("frontend/e2e", {
      displayName: "e2e",
      roots: ["<rootDir>/frontend/e2e"],
      testMatch: ["**/*.e2e.ts"],
      setupFilesAfterEnv: ["<rootDir>/frontend/e2e/retry-setup.ts"],
    }),
  ],
};
