import { describe, expect, it } from "@jest/globals";
import {
  TravellerEvent as Schema,
  type TravellerCommand,
  type TravellerEvent,
} from "@skyward/contracts/travellers";
import { deciderKit } from "../testing/decider-kit.ts";
import { decideTraveller, evolve, noTraveller, type TravellerState } from "./traveller.ts";

const sealed = { alg: "aes-256-cbc" as const, iv: "AAAAAAAAAAAAAAAAAAAAAA==", ciphertext: "c2VhbGVk" };
const belonging = { traveller_id: "t1", company_id: "c1", agency_id: "a1", demo_owner: null };
const registered: TravellerEvent = { type: "TravellerRegistered", data: { ...belonging, personal: sealed } };
const erased: TravellerEvent = { type: "TravellerErased", data: { traveller_id: "t1" } };

const traveller = deciderKit<TravellerCommand, TravellerState, TravellerEvent>({
  decide: decideTraveller,
  evolve,
  initial: noTraveller,
  check: (event) => Schema.parse(event),
});

describe("the traveller decider", () => {
  it("given none, when registered, then registered with where it belongs and its sealed profile; again, refused", () => {
    traveller
      .given()
      .when({ type: "RegisterTraveller", ...belonging, personal: sealed })
      .thenEvents([registered]);
    traveller
      .given(registered)
      .when({ type: "RegisterTraveller", ...belonging, personal: sealed })
      .thenRefused("traveller_exists");
  });

  it("given a kept traveller, when updated, then updated; when erased, then erased; the state keeps no personal field", () => {
    const kept = traveller.given(registered);
    expect(kept.state).toEqual({ status: "kept", ...belonging });
    kept
      .when({ type: "UpdateTraveller", personal: sealed })
      .thenEvents([{ type: "TravellerUpdated", data: { traveller_id: "t1", personal: sealed } }]);
    kept.when({ type: "EraseTraveller" }).thenEvents([erased]);
  });

  it("given an erased traveller, when changed, then refused; when erased again, then nothing; with no key, a change is refused as erased", () => {
    traveller
      .given(registered, erased)
      .when({ type: "UpdateTraveller", personal: sealed })
      .thenRefused("traveller_erased");
    traveller.given(registered, erased).when({ type: "EraseTraveller" }).thenEvents([]);
    traveller
      .given(registered)
      .when({ type: "UpdateTraveller", personal: null })
      .thenRefused("traveller_erased");
    traveller.given().when({ type: "EraseTraveller" }).thenRefused("traveller_not_found");
  });
});
