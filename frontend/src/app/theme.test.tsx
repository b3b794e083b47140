import { describe, expect, it } from "@jest/globals";
import { Loader } from "@mantine/core";
import { screen } from "@testing-library/react";
import { renderWithProviders } from "../test-utils/render.tsx";

describe("theme", () => {
  it("gives every spinner the status role, so the name it carries is allowed (axe: aria-prohibited-attr)", () => {
    renderWithProviders(<Loader size="sm" aria-label="Loading channels" />);
    expect(screen.getByRole("status", { name: "Loading channels" })).toBeInTheDocument();
  });
});
