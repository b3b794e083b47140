import { Writable } from "node:stream";
import { describe, expect, it } from "@jest/globals";
import { createLogger, loggedRequest, loggedUrl } from "./logger.ts";

describe("the URL a request log shows", () => {
  it("when a query carries what an agent typed, then its values are redacted and the names, paging and kinds kept", () => {
    expect(loggedUrl("/travellers?q=FY9081726&page=2")).toBe("/travellers?q=[redacted]&page=2");
    expect(loggedUrl("/bookings?status=issued&last_name=Ostapchuk&per_page=50")).toBe(
      "/bookings?status=issued&last_name=[redacted]&per_page=50",
    );
    expect(loggedUrl("/sales?email=a%40b.test&sort=date")).toBe("/sales?email=[redacted]&sort=date");
    // An encoded name is still the name it decodes to; a bare flag and an empty pair keep no value to hide.
    expect(loggedUrl("/x?p%61ge=3&q%20x=secret&flag&&")).toBe("/x?p%61ge=3&q%20x=[redacted]&flag");
    expect(loggedUrl("/x?%E0%A4%A=broken")).toBe("/x?%E0%A4%A=[redacted]");
    expect(loggedUrl("/account/details")).toBe("/account/details");
  });

  it("when pino writes a request, then the line shows the redacted URL and no parsed query", () => {
    let written = "";
    const sink = new Writable({
      write(chunk, _encoding, done) {
        written += chunk.toString();
        done();
      },
    });
    const logger = createLogger("info", sink);
    logger.info({ req: loggedRequest({ method: "GET", url: "/travellers?q=KOVAL", query: { q: "KOVAL" } }) });
    expect(written).toContain('"url":"/travellers?q=[redacted]"');
    expect(written).not.toContain("KOVAL");
  });
});
