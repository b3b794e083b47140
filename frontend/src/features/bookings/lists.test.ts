import { describe, expect, it } from "@jest/globals";
import { listOfStatus } from "./lists.ts";

describe("booking lists", () => {
  it("maps issued and exchanged bookings to the issued list", () => {
    expect(listOfStatus("issued")).toBe("issued");
    expect(listOfStatus("exchanged")).toBe("issued");
    expect(listOfStatus("held")).toBe("new");
    expect(listOfStatus("ticketing")).toBe("new");
    expect(listOfStatus("voided")).toBe("cancelled");
    expect(listOfStatus("expired")).toBe("cancelled");
    expect(listOfStatus("refunded")).toBe("refunded");
  });
});
