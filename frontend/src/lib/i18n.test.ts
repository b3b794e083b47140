import { afterEach, describe, expect, it, jest } from "@jest/globals";

type I18nModule = typeof import("./i18n.ts");

/** A fresh copy of the module, as on a page load with whatever the browser has stored. */
async function loadOnFreshPage(): Promise<I18nModule> {
  let loaded: I18nModule | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = await import("./i18n.ts");
  });
  if (!loaded) throw new Error("i18n module did not load");
  return loaded;
}

afterEach(() => window.localStorage.clear());

describe("site language", () => {
  it("is English by default", async () => {
    const { siteLanguage, i18n } = await loadOnFreshPage();
    expect(siteLanguage()).toBe("en");
    expect(i18n.t("notifications:server_problems")).toBe("There are problems on the server");
  });

  it("comes back from the product's storage key on the next visit", async () => {
    window.localStorage.setItem("skyward.locale", "pl");
    const { siteLanguage, i18n } = await loadOnFreshPage();
    expect(siteLanguage()).toBe("pl");
    expect(i18n.t("notifications:server_problems")).toBe("Wystąpiły problemy z serwerem");
    // Mirrored in a cookie at start, for the server to send the page with this language's catalogues preloaded.
    expect(document.cookie).toContain("skyward_lang=pl");
  });

  it("falls back to English when the stored value is not a product language", async () => {
    window.localStorage.setItem("skyward.locale", "de");
    const { siteLanguage } = await loadOnFreshPage();
    expect(siteLanguage()).toBe("en");
  });

  it("is remembered when changed, and Ukrainian gets its BCP 47 tag on the page", async () => {
    const { setSiteLanguage, siteLanguage, i18n } = await loadOnFreshPage();
    await setSiteLanguage("ua");
    expect(siteLanguage()).toBe("ua");
    expect(document.cookie).toContain("skyward_lang=ua");
    expect(window.localStorage.getItem("skyward.locale")).toBe("ua");
    expect(document.documentElement.lang).toBe("uk");
    expect(i18n.t("language:label")).toBe("Мова");
  });
});
