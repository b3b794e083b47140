import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { DEMO_PASSWORD } from "@skyward/command-service/world/demo-world";
import { afterFirstPaintEntry, withFirstScreen } from "./first-screen.ts";
import { PAGE_DATA_ID, type PageData } from "./page-data.ts";
import type { HttpClient } from "./testing/http-client.ts";
import { startTestApp, type TestApp } from "./testing/test-app.ts";

/** One string of the front end's catalogue (`frontend/src/locales/<language>/<namespace>.json`). */
function text(language: string, namespace: string, key: string): string {
  const catalogue = JSON.parse(
    readFileSync(
      new URL(`../../frontend/src/locales/${language}/${namespace}.json`, import.meta.url),
      "utf8",
    ),
  ) as Record<string, unknown>;
  const found = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)[part], catalogue);
  if (typeof found !== "string") throw new Error(`no ${language}/${namespace}:${key}`);
  return found;
}

/** What `#root` holds as sent: the element's content up to the page's closing body. */
const rootOf = (html: string) => html.slice(html.indexOf('<div id="root">'), html.indexOf("</body>"));

/** Text as React writes it into HTML (the catalogues' apostrophes and ampersands escaped). */
const asHtml = (value: string) =>
  value
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#x27;");

describe("the first screen written into the page", () => {
  const page =
    '<!doctype html>\n<html lang="en">\n<head><link rel="preload" as="style" crossorigin href="/packs/assets/search-A.css">' +
    '<link rel="modulepreload" crossorigin href="/packs/assets/search-A.js"></head>' +
    '<body><div id="root"><!--first-screen--><div class="boot-bar">Skyward</div><!--/first-screen--></div></body></html>';

  it("given a screen in Ukrainian, then it stands in the skeleton's place, the page says its language, applies its own sheets and leaves its scripts to its entry", () => {
    const html = withFirstScreen(page, { html: "<h1>Пошук $& $'</h1>", language: "ua" });
    expect(html).toBe(
      '<!doctype html>\n<html lang="uk">\n<head><link rel="stylesheet" crossorigin href="/packs/assets/search-A.css">' +
        '<meta name="skyward-modulepreload" content="/packs/assets/search-A.js"></head>' +
        '<body><div id="root"><h1>Пошук $& $\'</h1></div></body></html>',
    );
  });

  it("given no screen, then the page is left as it was", () => {
    expect(withFirstScreen(page, null)).toBe(page);
  });

  it("given the built entry, then the page preloads its scripts and imports the shell once it has shown its first contentful paint, or after a second", () => {
    const entry = '<script type="module">import{t as e}from"/packs/assets/shell-A.js";await e();</script>';
    const html = afterFirstPaintEntry(`<head>${entry}</head>`);
    expect(html).toBe(
      '<head><script type="module">await new Promise((r)=>{const o=new PerformanceObserver((l)=>{' +
        'if(l.getEntriesByName("first-contentful-paint").length){o.disconnect();r()}});' +
        'o.observe({type:"paint",buffered:true});setTimeout(r,1000)});' +
        `for(const m of document.querySelectorAll('meta[name="skyward-modulepreload"]')){const l=document.createElement("link");` +
        'l.rel="modulepreload";l.crossOrigin="";l.href=m.content;document.head.append(l)}' +
        'const{t:e}=await import("/packs/assets/shell-A.js");await e();</script></head>',
    );
    // An entry the build left as a file is left alone.
    const file = '<script type="module" crossorigin src="/packs/assets/index-A.js"></script>';
    expect(afterFirstPaintEntry(file)).toBe(file);
  });
});

describe("the first screen over HTTP: the signed-in page's own, in the browser's language", () => {
  let t: TestApp;
  let agent: HttpClient;

  const pageOf = async (client: HttpClient, path: string) => {
    const res = await client.get(path, { headers: { accept: "text/html" } });
    expect(res.status).toBe(200);
    return String(res.body);
  };

  beforeAll(async () => {
    t = await startTestApp();
    agent = t.client();
    expect((await agent.signInWithPassword("agent@dnipro.test", DEMO_PASSWORD)).status).toBe(200);
  }, 120_000);

  afterAll(() => t?.stop());

  it("given the built front end and an agent whose browser shows French, when /search is opened, then #root holds the search's French heading and empty state, styled by the page's sheets", async () => {
    agent.setCookie("skyward_lang", "fr");
    const html = await pageOf(agent, "/search");
    const root = rootOf(html);
    expect(root).toContain('data-first-screen="search"');
    expect(root).toContain(`<h1 `);
    expect(root).toContain(`>${asHtml(text("fr", "search", "title"))}</h1>`);
    expect(root).toContain(`>${asHtml(text("fr", "search", "empty.title"))}</p>`);
    expect(root).toContain(`>${asHtml(text("fr", "search", "empty.text"))}</p>`);
    expect(root).not.toContain(asHtml(text("en", "search", "empty.text")));
    expect(root).not.toContain("boot-bar");
    expect(html).toContain('<html lang="fr"');
    // The search page's sheet applies from the start (the app finds it and adds none).
    expect(html).toMatch(/<link rel="stylesheet" crossorigin href="\/packs\/assets\/search-[\w-]+\.css">/);
    expect(html).not.toMatch(/<link rel="preload" as="style"/);
  });

  it("given a page with its first screen, then its entry waits for the first paint and the page's policy allows it", async () => {
    const res = await agent.get("/search", { headers: { accept: "text/html" } });
    const html = String(res.body);
    const entries = [...html.matchAll(/<script type="module">([^<]*)<\/script>/g)].map((m) => m[1] ?? "");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatch(
      /^await new Promise\(.*first-contentful-paint.*await import\("\/packs\/assets\/shell-/,
    );
    const hash = createHash("sha256")
      .update(entries[0] ?? "")
      .digest("base64");
    expect(res.headers.get("content-security-policy")).toContain(`'sha256-${hash}'`);
    // Its scripts are fetched by it, once painted: none preloaded beside the sheets.
    expect(html).not.toContain('<link rel="modulepreload"');
    expect(html).toMatch(/<meta name="skyward-modulepreload" content="\/packs\/assets\/search-[\w-]+\.js">/);
    // The sign-in page keeps the entry as built: a static import of the shell, allowed too.
    const signIn = String((await t.client().get("/sign_in", { headers: { accept: "text/html" } })).body);
    expect(signIn).toMatch(
      /<script type="module">import\{\w+ as \w+\}from"\/packs\/assets\/shell-[\w-]+\.js";/,
    );
  });

  it("given a language cookie the build has no screen for, then the screen is the English one", async () => {
    for (const language of ["de", "constructor", "__proto__"]) {
      agent.setCookie("skyward_lang", language);
      const html = await pageOf(agent, "/search");
      expect([language, rootOf(html).includes(`>${asHtml(text("en", "search", "title"))}</h1>`)]).toEqual([
        language,
        true,
      ]);
      expect(html).toContain('<html lang="en"');
    }
  });

  it("given a search in the address, or nobody signed in, then the page keeps the start-up skeleton", async () => {
    agent.setCookie("skyward_lang", "en");
    const searched = rootOf(await pageOf(agent, "/search?from=KBP&to=WAW"));
    expect(searched).toContain("boot-bar");
    expect(searched).not.toContain("data-first-screen");
    const signedOut = await pageOf(t.client(), "/search");
    expect(rootOf(signedOut)).toContain("boot-bar");
    expect(signedOut).toContain('<html lang="en"');
  });

  it("given an agent whose browser shows Ukrainian, when /bookings is opened, then #root holds its Ukrainian heading and tabs, and the empty state exactly when its first list has no row", async () => {
    agent.setCookie("skyward_lang", "ua");
    const html = await pageOf(agent, "/bookings?list=cancelled");
    const data = JSON.parse(
      new RegExp(`<script type="application/json" id="${PAGE_DATA_ID}">([^<]*)</script>`).exec(html)?.[1] ??
        "null",
    ) as PageData;
    const root = rootOf(html);
    expect(root).toContain('data-first-screen="bookings"');
    expect(root).toContain(`>${asHtml(text("ua", "bookings", "title"))}</h1>`);
    expect(root).toContain(`>${asHtml(text("ua", "bookings", "lead"))}</p>`);
    for (const list of ["new", "issued", "cancelled", "refunded"])
      expect(root).toContain(asHtml(text("ua", "bookings", `lists.${list}`)));
    // The cancelled tab is the chosen one.
    expect(/<button[^>]*aria-selected="true"[^>]*>(.*?)<\/button>/.exec(root)?.[1]).toContain(
      asHtml(text("ua", "bookings", "lists.cancelled")),
    );
    expect(data.bookings?.list).toBe("cancelled");
    const empty = (data.bookings?.answer.data.length ?? -1) === 0;
    expect(root.includes(`>${asHtml(text("ua", "bookings", "empty.cancelled"))}</p>`)).toBe(empty);
    expect(html).toContain('<html lang="uk"');
  });
});
