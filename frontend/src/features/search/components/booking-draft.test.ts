import { describe, expect, it } from "@jest/globals";
import { ApiError } from "../../../lib/api-client.ts";
import { type BookingDraft, draftFor, serverErrors, validateDraft } from "./booking-draft.ts";

const trip = { departureDate: "2026-12-12", lastDate: "2026-12-19", today: "2026-11-21" };

function filled(draft: BookingDraft): BookingDraft {
  return {
    passengers: draft.passengers.map((p, i) => ({
      ...p,
      gender: "F",
      first_name: " Olena ",
      last_name: `Koval${"abc"[i] ?? ""}`,
      date_of_birth: { adult: "1988-03-02", child: "2018-05-05", infant: "2026-01-10" }[p.type],
      document: {
        type: "passport",
        number: "fn 123-456",
        issuing_country: "UA",
        nationality: "UA",
        expires_on: "2031-01-01",
      },
    })),
    contacts: { email: " olena@example.com ", phone: "+38 (050) 111-22-33" },
  };
}

describe("booking draft", () => {
  it("has one passenger per searched seat and lap, adults first", () => {
    expect(draftFor({ adults: 2, children: 1, infants: 1 }).passengers.map((p) => p.type)).toEqual([
      "adult",
      "adult",
      "child",
      "infant",
    ]);
  });

  it("names every empty field", () => {
    const { errors, request } = validateDraft(draftFor({ adults: 1, children: 0, infants: 0 }), trip);
    expect(request).toBeNull();
    expect(Object.keys(errors).sort()).toEqual(
      [
        "contacts.email",
        "contacts.phone",
        "passengers.0.date_of_birth",
        "passengers.0.document.expires_on",
        "passengers.0.document.issuing_country",
        "passengers.0.document.nationality",
        "passengers.0.document.number",
        "passengers.0.first_name",
        "passengers.0.gender",
        "passengers.0.last_name",
      ].sort(),
    );
  });

  it("refuses names outside Latin letters, ages that do not fit the type, and documents that expire on the trip", () => {
    const draft = filled(draftFor({ adults: 1, children: 1, infants: 0 }));
    const adult = draft.passengers[0];
    const child = draft.passengers[1];
    if (!adult || !child) throw new Error("two passengers expected");
    adult.last_name = "Коваль";
    adult.document.expires_on = "2026-12-15";
    child.date_of_birth = "2014-12-11";
    const { errors } = validateDraft(draft, trip);
    expect(errors).toEqual({
      "passengers.0.last_name": { key: "latin" },
      "passengers.0.document.expires_on": { key: "expired" },
      "passengers.1.date_of_birth": { key: "child_age" },
    });
  });

  it("builds the request with tidy names, document numbers and phone", () => {
    const { errors, request } = validateDraft(filled(draftFor({ adults: 1, children: 0, infants: 1 })), trip);
    expect(errors).toEqual({});
    expect(request?.contacts).toEqual({ email: "olena@example.com", phone: "+380501112233" });
    expect(request?.passengers[0]).toMatchObject({
      type: "adult",
      first_name: "Olena",
      document: { number: "FN123456" },
    });
    expect(request?.passengers[1]).toMatchObject({ type: "infant", date_of_birth: "2026-01-10" });
  });

  it("puts the server's field errors on their fields and keeps the rest general", () => {
    const draft = draftFor({ adults: 1, children: 0, infants: 0 });
    const error = new ApiError(422, [
      {
        status: "422",
        code: "invalid",
        title: "Invalid",
        detail: "must use Latin letters",
        source: { pointer: "/passengers/0/last_name" },
      },
      {
        status: "422",
        code: "invalid",
        title: "Invalid",
        detail: "must be 5-20 letters",
        source: { pointer: "/passengers/0/document/number" },
      },
      {
        status: "422",
        code: "invalid",
        title: "Invalid",
        detail: "must be 1 adult(s)",
        source: { pointer: "/passengers" },
      },
      { status: "409", code: "no_availability", title: "Sold out" },
    ]);
    expect(serverErrors(error, draft)).toEqual({
      fields: {
        "passengers.0.last_name": { text: "must use Latin letters" },
        "passengers.0.document.number": { text: "must be 5-20 letters" },
      },
      general: ["must be 1 adult(s)", "The seats are no longer available on this fare"],
    });
  });
});
