import { beforeEach, describe, expect, it, jest } from "@jest/globals";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { analyticsQueue, resetAnalytics } from "../../../lib/analytics.ts";
import { setSiteLanguage, siteLanguage } from "../../../lib/i18n.ts";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import LanguagePicker from "./language-menu.tsx";

const trackedEvents = () =>
  analyticsQueue().flatMap((entry) =>
    entry.kind === "track" ? [{ event: entry.event, props: entry.props }] : [],
  );

beforeEach(async () => {
  resetAnalytics();
  await act(() => setSiteLanguage("en"));
  window.localStorage.clear();
});

describe("LanguagePicker", () => {
  it("offers en, ua, fr, es, pl by default, each named in itself", () => {
    renderWithProviders(<LanguagePicker />);
    fireEvent.click(screen.getByRole("button", { name: "Language: English" }));
    expect(screen.getAllByRole("menuitem").map((item) => item.textContent)).toEqual([
      "English",
      "Українська",
      "Français",
      "Español",
      "Polski",
    ]);
  });

  it("sets the site language, closes, announces the choice and tracks 'Change language'", async () => {
    renderWithProviders(<LanguagePicker />);
    fireEvent.click(screen.getByRole("button", { name: "Language: English" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Polski" }));

    await waitFor(() => expect(siteLanguage()).toBe("pl"));
    expect(window.localStorage.getItem("skyward.locale")).toBe("pl");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Język: Polski" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Zmieniono język na Polski");
    expect(trackedEvents()).toEqual([
      { event: "Change language", props: { language: "pl", website_language: true, platform: "Site" } },
    ]);
  });

  it("offers only the languages it is given", () => {
    renderWithProviders(<LanguagePicker languages={["en", "ua", "pl"]} />);
    fireEvent.click(screen.getByRole("button", { name: "Language: English" }));
    expect(screen.getAllByRole("menuitem").map((item) => item.textContent)).toEqual([
      "English",
      "Українська",
      "Polski",
    ]);
  });

  it("leaves the site language alone when the language is not the website's", async () => {
    const onChange = jest.fn();
    renderWithProviders(<LanguagePicker isNotWebsiteLang select="fr" onChange={onChange} />);
    fireEvent.click(screen.getByRole("button", { name: "Language: Français" }));
    fireEvent.click(screen.getByRole("menuitem", { name: "Español" }));

    expect(onChange).toHaveBeenCalledWith("es");
    expect(screen.queryByRole("menu")).not.toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Language: Español" })).toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent("Language changed to Español");
    expect(trackedEvents()).toEqual([
      { event: "Change language", props: { language: "es", website_language: false, platform: "Site" } },
    ]);
    expect(siteLanguage()).toBe("en");
    expect(window.localStorage.getItem("skyward.locale")).toBeNull();
  });

  it("prompts for a choice when a non-website picker has nothing selected", () => {
    renderWithProviders(<LanguagePicker isNotWebsiteLang />);
    expect(screen.getByRole("button", { name: "Choose language" })).toBeInTheDocument();
  });
});
