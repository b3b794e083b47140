import { describe, expect, it } from "@jest/globals";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { renderWithProviders } from "../../../test-utils/render.tsx";
import { LanguagePicker } from "./language-picker.tsx";

// Its menu's code is a lazy chunk: the first import under Jest can outlast findBy's default 1 s.
const LAZY = { timeout: 15_000 };

// One test: once loaded, the menu's code stays loaded for the whole file (as it does for the page).
describe("LanguagePicker (menu code loaded on demand)", () => {
  it("draws a stand-in button, hands its focus to the real one, and opens the menu a click asked for", async () => {
    renderWithProviders(<LanguagePicker languages={["en", "ua", "pl"]} />);
    const standIn = screen.getByRole("button", { name: "Language: English" });
    expect(standIn).not.toHaveAttribute("aria-haspopup");
    standIn.focus();
    fireEvent.focus(standIn);
    fireEvent.click(standIn);

    const menu = await screen.findByRole("menu", {}, LAZY);
    expect(menu).toBeInTheDocument();
    expect(screen.getAllByRole("menuitem").map((item) => item.textContent)).toEqual([
      "English",
      "Українська",
      "Polski",
    ]);
    const real = screen.getByRole("button", { name: "Language: English" });
    expect(real).toHaveAttribute("aria-haspopup", "menu");
    await waitFor(() => expect(real).toHaveAttribute("aria-expanded", "true"));
  });
});
