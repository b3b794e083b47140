import { describe, expect, it } from "@jest/globals";
import { decidedAppends } from "./command.ts";
import { systemMetadata } from "./metadata.ts";

const metadata = systemMetadata("t-1");
const decided = [{ type: "Happened", data: { n: 1 } }];

describe("the appends of a decision on one stream", () => {
  it("when nothing was decided, then nothing is appended, not even a version check", () => {
    expect(decidedAppends("mails-X", 3, [], metadata)).toEqual([]);
  });

  it("when the stream was loaded empty, then it is created (no_stream); otherwise appended at the version read, each event with the metadata", () => {
    expect(decidedAppends("mails-X", 0, decided, metadata)).toEqual([
      {
        streamId: "mails-X",
        expected: "no_stream",
        events: [{ type: "Happened", data: { n: 1 }, metadata }],
      },
    ]);
    expect(decidedAppends("mails-X", 4, decided, metadata)[0]?.expected).toBe(4);
  });
});
