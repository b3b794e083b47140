import { afterEach, beforeEach, describe, expect, it, jest } from "@jest/globals";
import {
  clearNotifications,
  currentNotifications,
  dismissErrors,
  dismissNotification,
  notificationFromQuery,
  notify,
  prefillNotificationFromUrl,
} from "./notifications.ts";

const only = () => {
  const [notification, ...rest] = currentNotifications();
  expect(rest).toEqual([]);
  return notification;
};

beforeEach(() => {
  jest.useFakeTimers();
});
afterEach(() => {
  clearNotifications();
  jest.useRealTimers();
});

describe("notification timings", () => {
  it("sets the start flag after 50 ms", () => {
    notify({ text: "Booking held", type: "success" });
    jest.advanceTimersByTime(49);
    expect(only()?.start).toBe(false);
    jest.advanceTimersByTime(1);
    expect(only()?.start).toBe(true);
  });

  it("shows a success for 4 s, then fades it out for 1 s", () => {
    notify({ text: "Booking held", type: "success" });
    jest.advanceTimersByTime(3_999);
    expect(only()).toMatchObject({ start: true, finish: false });
    jest.advanceTimersByTime(1);
    expect(only()?.finish).toBe(true);
    jest.advanceTimersByTime(999);
    expect(only()?.finish).toBe(true);
    jest.advanceTimersByTime(1);
    expect(currentNotifications()).toEqual([]);
  });

  it("shows an error for 15 s, then fades it out for 1 s", () => {
    notify({ text: "Fare is no longer available", type: "error" });
    jest.advanceTimersByTime(14_999);
    expect(only()?.finish).toBe(false);
    jest.advanceTimersByTime(1);
    expect(only()?.finish).toBe(true);
    jest.advanceTimersByTime(1_000);
    expect(currentNotifications()).toEqual([]);
  });

  it("keeps a permanent notification until it is closed", () => {
    const id = notify({ text: "Ticketing is paused", type: "error", permanent: true });
    jest.advanceTimersByTime(60 * 60 * 1_000);
    expect(only()).toMatchObject({ start: true, finish: false, permanent: true });
    dismissNotification(id);
    expect(only()?.finish).toBe(true);
    jest.advanceTimersByTime(1_000);
    expect(currentNotifications()).toEqual([]);
  });

  it("does not stack the same message twice while it is on screen", () => {
    notify({ text: "There are problems on the server", type: "error" });
    notify({ text: "There are problems on the server", type: "error" });
    notify({ text: "Booking held", type: "success" });
    expect(currentNotifications().map((notification) => notification.text)).toEqual([
      "There are problems on the server",
      "Booking held",
    ]);
  });

  it("fades out the errors, and only the errors, when a new attempt is made", () => {
    notify({ text: "The code is not correct. 4 attempts left.", type: "error" });
    notify({ text: "A new code was sent", type: "success" });
    dismissErrors();
    jest.advanceTimersByTime(1_000);
    expect(currentNotifications().map((notification) => notification.text)).toEqual(["A new code was sent"]);
  });
});

describe("notification from the URL", () => {
  it("reads message and type", () => {
    expect(notificationFromQuery("?message=Ticket%20voided&type=success")).toEqual({
      text: "Ticket voided",
      type: "success",
    });
    expect(notificationFromQuery("?message=Access%20denied&type=error")).toEqual({
      text: "Access denied",
      type: "error",
    });
  });

  it("treats an unknown or missing type as a success, and no message as nothing to show", () => {
    expect(notificationFromQuery("?message=Saved")).toEqual({ text: "Saved", type: "success" });
    expect(notificationFromQuery("?message=Saved&type=warning")).toEqual({ text: "Saved", type: "success" });
    expect(notificationFromQuery("?type=error")).toBeNull();
    expect(notificationFromQuery("?message=%20&type=error")).toBeNull();
  });

  it("translates a message that names a notifications key", () => {
    expect(notificationFromQuery("?message=server_problems&type=error")).toEqual({
      text: "There are problems on the server",
      type: "error",
    });
  });

  it("shows the notification on load and drops the parameters from the address", () => {
    window.history.replaceState(
      null,
      "",
      "/bookings?locator=ABC234&message=Booking%20cancelled&type=success#top",
    );
    prefillNotificationFromUrl();
    expect(only()).toMatchObject({ text: "Booking cancelled", type: "success" });
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe(
      "/bookings?locator=ABC234#top",
    );
  });
});
