import { describe, expect, it } from "@jest/globals";
import { QueryClientProvider } from "@tanstack/react-query";
import { createMemoryHistory, RouterProvider } from "@tanstack/react-router";
import { screen } from "@testing-library/react";
import { createQueryClient } from "../lib/query-client.ts";
import { renderWithProviders } from "../test-utils/render.tsx";
import { createAppRouter } from "./router.ts";

function renderAt(path: string) {
  const queryClient = createQueryClient();
  const router = createAppRouter(queryClient, createMemoryHistory({ initialEntries: [path] }));
  renderWithProviders(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe("routes", () => {
  it("serves the sign-in page with its translated heading", async () => {
    renderAt("/sign_in");
    expect(await screen.findByRole("heading", { level: 1, name: "Sign in to Skyward" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Skyward start page" })).toHaveAttribute("href", "/");
  });

  it("answers an unknown address with a page that leads back home", async () => {
    renderAt("/no/such/page");
    expect(await screen.findByRole("heading", { name: "Page not found" })).toBeInTheDocument();
    expect(screen.getByRole("link", { name: "Back to the start page" })).toHaveAttribute("href", "/");
  });
});
