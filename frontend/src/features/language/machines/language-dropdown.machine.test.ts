import { describe, expect, it } from "@jest/globals";
import { createActor } from "xstate";
import { languageDropdownMachine } from "./language-dropdown.machine.ts";

function startDropdown(selected = "", isNotWebsiteLang = true) {
  const reported: string[] = [];
  const actor = createActor(
    languageDropdownMachine.provide({
      actions: { reportChoice: (_, params) => reported.push(params.language) },
    }),
    { input: { selected, isNotWebsiteLang } },
  ).start();
  return { actor, reported };
}

describe("language dropdown machine", () => {
  it("starts closed and opens", () => {
    const { actor } = startDropdown();
    expect(actor.getSnapshot().value).toBe("closed");
    actor.send({ type: "dropdown.open" });
    expect(actor.getSnapshot().value).toBe("open");
  });

  it("closes on choosing a language and remembers it for the announcement", () => {
    const { actor, reported } = startDropdown("en");
    actor.send({ type: "dropdown.open" });
    actor.send({ type: "language.choose", language: "ua" });
    expect(actor.getSnapshot().value).toBe("closed");
    expect(actor.getSnapshot().context).toMatchObject({ selected: "ua", announced: "ua" });
    expect(reported).toEqual(["ua"]);
  });

  it("ignores a choice while closed", () => {
    const { actor, reported } = startDropdown("en");
    actor.send({ type: "language.choose", language: "ua" });
    expect(actor.getSnapshot().context.selected).toBe("en");
    expect(reported).toEqual([]);
  });

  it("drops a selection that is not a product language", () => {
    const { actor } = startDropdown("de");
    expect(actor.getSnapshot().context.selected).toBe("");
    actor.send({ type: "selection.sync", selected: "pl" });
    expect(actor.getSnapshot().context.selected).toBe("pl");
  });
});
