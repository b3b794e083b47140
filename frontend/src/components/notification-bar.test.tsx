import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import { act, fireEvent, screen } from "@testing-library/react";
import { clearNotifications, notify } from "../lib/notifications.ts";
import { renderWithProviders } from "../test-utils/render.tsx";
import { NotificationBar } from "./notification-bar.tsx";

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  act(() => clearNotifications());
  jest.useRealTimers();
});

describe("NotificationBar", () => {
  it("shows errors as alerts and successes as status messages, entering after 50 ms", () => {
    renderWithProviders(<NotificationBar />);
    act(() => {
      notify({ text: "Invalid credentials", type: "error" });
      notify({ text: "The credentials are correct.", type: "success" });
    });
    const error = screen.getByRole("alert");
    expect(error).toHaveTextContent("Invalid credentials");
    expect(screen.getByRole("status")).toHaveTextContent("The credentials are correct.");
    expect(error).not.toHaveAttribute("data-start");
    act(() => jest.advanceTimersByTime(50));
    expect(error).toHaveAttribute("data-start");
  });

  it("shows a warning (a price that rose) as a status message that stays as long as an error, not as a success", () => {
    renderWithProviders(<NotificationBar />);
    act(() => {
      notify({ text: "The price rose from 100 to 120.", type: "warning" });
    });
    const warning = screen.getByRole("status");
    expect(warning).toHaveAttribute("data-type", "warning");
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
    act(() => jest.advanceTimersByTime(5_000));
    expect(warning).not.toHaveAttribute("data-finish");
    act(() => jest.advanceTimersByTime(10_000));
    expect(warning).toHaveAttribute("data-finish");
  });

  it("fades a notification out when closed, then removes it", () => {
    renderWithProviders(<NotificationBar />);
    act(() => {
      notify({ text: "Ticketing is paused", type: "error", permanent: true });
    });
    fireEvent.click(screen.getByRole("button", { name: "Close notification" }));
    expect(screen.getByRole("alert")).toHaveAttribute("data-finish");
    act(() => jest.advanceTimersByTime(1_000));
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("shows the link a notification carries", () => {
    renderWithProviders(<NotificationBar />);
    act(() => {
      notify({ text: "Booking held.", type: "success", link: "/bookings?locator=ABC234", link_text: "Open" });
    });
    expect(screen.getByRole("link", { name: "Open" })).toHaveAttribute("href", "/bookings?locator=ABC234");
  });
});
