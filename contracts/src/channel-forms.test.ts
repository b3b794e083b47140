import { describe, expect, it } from "@jest/globals";
import { ChannelSettingsForm } from "./channel-forms.ts";
import { UpdateChannelRequest } from "./ticketing-commands.ts";

const settings = {
  form_of_payment: "balance",
  ticketing_credit_card_id: null,
  nego_code: "",
  resident_fares_code: "",
};
const fields = (values: object) =>
  ChannelSettingsForm.safeParse({ ...settings, ...values }).error?.issues.map((i) => i.path.join("."));

describe("the channel settings form", () => {
  it("given good settings, then they parse to the update the server takes (an empty code clears it)", () => {
    expect(ChannelSettingsForm.parse({ ...settings, nego_code: " NEGO-1/2 " })).toEqual({
      form_of_payment: "balance",
      ticketing_credit_card_id: null,
      nego_code: "NEGO-1/2",
      resident_fares_code: null,
    });
    expect(UpdateChannelRequest.safeParse(ChannelSettingsForm.parse(settings)).success).toBe(true);
  });

  it("given paying by card without a card, or codes the server refuses, then each field is named", () => {
    expect(fields({ form_of_payment: "card" })).toEqual(["ticketing_credit_card_id"]);
    expect(fields({ form_of_payment: "card", ticketing_credit_card_id: "card-1" })).toBeUndefined();
    expect(fields({ nego_code: "NEGO;DROP" })).toEqual(["nego_code"]);
    expect(fields({ resident_fares_code: "R".repeat(51) })).toEqual(["resident_fares_code"]);
  });
});
