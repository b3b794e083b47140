import { describe, expect, it } from "@jest/globals";
import { clientOf } from "./rate-limits.ts";

describe("the client a sign-in limit counts", () => {
  it("when the address is IPv4, plain or mapped into IPv6, then it is the address itself", () => {
    expect(clientOf("203.0.113.7")).toBe("203.0.113.7");
    expect(clientOf("::ffff:203.0.113.7")).toBe("203.0.113.7");
  });

  it("when the address is IPv6, then it is its /64, however the address is written", () => {
    expect(clientOf("2001:db8:1:2::a")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:0db8:0001:0002:ffff:1:2:3")).toBe("2001:db8:1:2::/64");
    expect(clientOf("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(clientOf("::1")).toBe("0:0:0:0::/64");
    expect(clientOf("2001:db8:1:3::a")).not.toBe(clientOf("2001:db8:1:2::a"));
  });

  it("when there is no address, then every such caller counts as one", () => {
    expect(clientOf(null)).toBe("unknown");
  });
});
