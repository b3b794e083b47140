import { useNavigate } from "@tanstack/react-router";
import { lazy, Suspense, useEffect, useState } from "react";
import { useSession } from "../lib/session.ts";

// The list of shortcuts (a dialog) loads when `?` first asks for it.
const ShortcutsDialog = lazy(() => import("./shortcuts-dialog.tsx"));

/** Where a key press goes to a field or an editor: shortcuts never take what is being typed. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA" || tag === "SELECT") return true;
  if (tag !== "INPUT") return false;
  const type = (target as HTMLInputElement).type;
  return !["button", "checkbox", "radio", "submit", "reset", "range", "color", "file"].includes(type);
}

/** Screens mark their search box `data-shortcut="search"` and their list's rows `data-shortcut-row`. */
const searchBox = () => document.querySelector<HTMLElement>('[data-shortcut="search"]');
const rows = () => [...document.querySelectorAll<HTMLElement>("[data-shortcut-row]")];

/** Moves the focus to the next (or previous) row of the screen's list, from the row that holds it. */
function moveRow(step: 1 | -1): boolean {
  const all = rows();
  if (all.length === 0) return false;
  const current = all.findIndex((row) => row.contains(document.activeElement));
  const next = current === -1 ? (step === 1 ? 0 : all.length - 1) : current + step;
  const row = all[Math.max(0, Math.min(all.length - 1, next))];
  row?.focus();
  row?.scrollIntoView({ block: "nearest" });
  return true;
}

/** Opens the row that has the focus: its `data-shortcut-open` control, else the row itself. */
function openRow(): boolean {
  const row = rows().find((candidate) => candidate.contains(document.activeElement));
  if (!row) return false;
  const control = row.querySelector<HTMLElement>("[data-shortcut-open]") ?? row;
  control.click();
  return true;
}

/** Focuses an element once the screen that holds it has rendered (after a navigation). */
function focusSoon(find: () => HTMLElement | null, tries = 100): void {
  const element = find();
  if (element) {
    element.focus();
    return;
  }
  if (tries > 0) window.setTimeout(() => focusSoon(find, tries - 1), 50);
}

/**
 * The experienced agent's keys, for signed-in screens: `/` the screen's search box, `n` a new search, `r` the recent
 * searches, `b` the bookings, `j`/`k` the next and previous row, `o` (or Enter on a row) opens it, `?` lists them. None fires while
 * a field has the focus, with a modifier held, or under an open dialog (but `?`).
 */
export function KeyboardShortcuts() {
  const session = useSession();
  const navigate = useNavigate();
  const [help, setHelp] = useState(false);
  const signedIn = Boolean(session);
  useEffect(() => {
    if (!signedIn) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(event.target))
        return;
      // A closed drawer may stay in the page, hidden: only one shown holds the keys.
      const dialog = [...document.querySelectorAll('[role="dialog"][aria-modal="true"]')].some(
        (element) => element.getClientRects().length > 0,
      );
      if (event.key === "?") {
        if (!dialog) setHelp(true);
        return event.preventDefault();
      }
      if (dialog) return;
      let done = true;
      switch (event.key) {
        case "/": {
          const box = searchBox();
          if (box) box.focus();
          else {
            void navigate({ to: "/search" });
            focusSoon(searchBox);
          }
          break;
        }
        case "n":
          void navigate({ to: "/search", search: {} });
          // The form's first text field (the trip type's radios come before it): the departure airport.
          focusSoon(() =>
            document.querySelector<HTMLElement>(
              '[data-shortcut="new-search"] input:not([type="radio"]):not([type="checkbox"]):not([type="hidden"])',
            ),
          );
          break;
        case "b":
          void navigate({ to: "/bookings" });
          break;
        case "r": {
          // The latest of the recent searches (the search screen lists them before a search is made).
          const latest = () =>
            document.querySelector<HTMLElement>('[data-shortcut="recent-searches"] button');
          if (latest()) latest()?.focus();
          else {
            void navigate({ to: "/search", search: {} });
            focusSoon(latest, 40);
          }
          break;
        }
        case "j":
          done = moveRow(1);
          break;
        case "k":
          done = moveRow(-1);
          break;
        case "o":
          done = openRow();
          break;
        case "Enter":
          done =
            event.target instanceof HTMLElement &&
            event.target.hasAttribute("data-shortcut-row") &&
            openRow();
          break;
        default:
          done = false;
      }
      if (done) event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    // Said on the page: the shortcuts' code comes after the first signed-in paint (tests wait for it).
    document.documentElement.dataset.shortcuts = "on";
    return () => {
      window.removeEventListener("keydown", onKey);
      delete document.documentElement.dataset.shortcuts;
    };
  }, [signedIn, navigate]);
  return help ? (
    <Suspense fallback={null}>
      <ShortcutsDialog onClose={() => setHelp(false)} />
    </Suspense>
  ) : null;
}
