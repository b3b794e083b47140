import { describe, expect, it } from "@jest/globals";
import { formatTicketNumber, parseTicketNumber, randomSerial, ticketNumber } from "./ticket-number.ts";

describe("ticket numbers", () => {
  it("given LOT's accounting code and a serial, then the number is 13 digits with the 080 prefix", () => {
    const number = ticketNumber("080", "2401234567");
    expect(number).toBe("0802401234567");
    expect(number).toMatch(/^\d{13}$/);
    expect(parseTicketNumber(number)).toEqual({ accountingCode: "080", serial: "2401234567" });
    expect(formatTicketNumber(number)).toBe("080-2401234567");
  });

  it("given a random source, when a serial is drawn, then it is 10 digits, leading zeros kept", () => {
    expect(randomSerial(() => 0)).toBe("0000000000");
    const digits = [1, 2, 3, 4, 5, 6, 7, 8, 9, 0];
    expect(randomSerial(() => digits.shift() ?? 0)).toBe("1234567890");
  });

  it("given a malformed code or serial, then no ticket number is made", () => {
    expect(() => ticketNumber("80", "2401234567")).toThrow(RangeError);
    expect(() => ticketNumber("080", "240123456")).toThrow(RangeError);
    expect(parseTicketNumber("080-2401234567")).toBeNull();
  });
});
