import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { type Browser, chromium } from "playwright-core";

// The browser of the e2e harness (frontend/e2e/harness.ts) and the benchmarks, which run under plain Node.

/** Flags measured to work on the build machines (TOOLCHAIN.md, gotcha 8). */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const SYSTEM_CHROMIUM = "/usr/bin/chromium";

export interface ChromiumBinary {
  executablePath: string;
  env: Record<string, string>;
}

/**
 * The browser for the end-to-end tests and benchmarks: the Chromium shipped inside npm `@sparticuz/chromium` (so
 * `npm install` is all a fresh machine needs), or the installed /usr/bin/chromium when the npm one cannot be
 * unpacked or launched.
 */
export async function launchChromium(): Promise<Browser> {
  let npmFailure: unknown;
  try {
    const npm = await unpackNpmChromium();
    return await chromium.launch({ executablePath: npm.executablePath, args: CHROMIUM_ARGS, env: npm.env });
  } catch (error) {
    npmFailure = error;
  }
  if (!existsSync(SYSTEM_CHROMIUM))
    throw new Error(`No browser: npm @sparticuz/chromium failed and ${SYSTEM_CHROMIUM} is absent`, {
      cause: npmFailure,
    });
  console.warn(`npm @sparticuz/chromium did not launch (${String(npmFailure)}); using ${SYSTEM_CHROMIUM}`);
  return chromium.launch({ executablePath: SYSTEM_CHROMIUM, args: CHROMIUM_ARGS });
}

/** The Chromium of npm `@sparticuz/chromium` (unpacked once per version), or /usr/bin/chromium when that fails. */
export async function chromiumBinary(): Promise<ChromiumBinary> {
  try {
    return await unpackNpmChromium();
  } catch (error) {
    if (!existsSync(SYSTEM_CHROMIUM))
      throw new Error(`No browser: npm @sparticuz/chromium failed and ${SYSTEM_CHROMIUM} is absent`, {
        cause: error,
      });
    console.warn(`npm @sparticuz/chromium did not unpack (${String(error)}); using ${SYSTEM_CHROMIUM}`);
    return { executablePath: SYSTEM_CHROMIUM, env: processEnv() };
  }
}

function processEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

/**
 * Unpacks @sparticuz/chromium once per version into the temp folder: the browser, its GL libraries, the NSS
 * libraries it links against (its Amazon Linux bundle; a bare Debian lacks them) and a font. The package unpacks
 * into `os.tmpdir()` without a lock, so it runs in a child process with its own TMPDIR and the folder is renamed
 * into place: parallel test workers never launch a half-written binary.
 */
async function unpackNpmChromium(): Promise<ChromiumBinary> {
  const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
  const bin = join(dirname(entry), "..", "bin");
  const { version } = JSON.parse(await readFile(join(dirname(entry), "..", "package.json"), "utf8"));
  const folder = join(tmpdir(), `skyward-chromium-${version}`);
  if (!existsSync(folder)) {
    const staging = await mkdtemp(join(tmpdir(), "skyward-chromium-unpacking-"));
    try {
      const script = `const { default: chromium, inflate } = await import(${JSON.stringify(pathToFileURL(entry).href)});
        await chromium.executablePath();
        await inflate(${JSON.stringify(join(bin, "al2023.tar.br"))});`;
      await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], {
        env: { ...process.env, TMPDIR: staging },
      });
      await writeFile(
        join(staging, "fonts.conf"),
        `<?xml version="1.0"?>\n<fontconfig><dir>${join(folder, "fonts")}</dir><cachedir>${join(folder, "fonts-cache")}</cachedir></fontconfig>\n`,
      );
      await rename(staging, folder);
    } catch (error) {
      await rm(staging, { recursive: true, force: true });
      if (!existsSync(folder)) throw error;
    }
  }
  const env = processEnv();
  env.LD_LIBRARY_PATH = [join(folder, "al2023", "lib"), process.env.LD_LIBRARY_PATH]
    .filter(Boolean)
    .join(":");
  if (!existsSync("/etc/fonts/fonts.conf")) env.FONTCONFIG_FILE = join(folder, "fonts.conf");
  return { executablePath: join(folder, "chromium"), env };
}
