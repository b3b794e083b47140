import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { loadSearchChecks, searchChecks } from "../load-checks.ts";
import type { SearchContext, SearchEvent } from "./search.machine.ts";
import type { SearchActor, SearchActors } from "./search-actor.ts";
import { START_CONTEXT } from "./search-start.ts";

/** What the page reads of the search: its context and which state it is in. */
export interface SearchView {
  context: SearchContext;
  matches: SearchActor["getSnapshot"] extends () => infer S
    ? S extends { matches: infer M }
      ? M
      : never
    : never;
}

/** The search before its first event: the machine's own start, without its code. */
// XState's `matches` is generic over the machine's state values; the start answers for its own only.
const startMatches: (state: unknown) => boolean = (state) => state === "start";
const START: SearchView = { context: START_CONTEXT, matches: startMatches as SearchView["matches"] };

/**
 * The search machine (search.machine.ts), its code (XState) loaded with the first event rather than with the page:
 * an empty search page shows the machine's start, which needs none of it. Events sent while the code loads are sent
 * to the machine, in order, once it runs; it comes in the search checks' chunk (checks.ts), which a first search
 * loads anyway.
 */
export function useSearchMachine(actors: () => SearchActors): [SearchView, (event: SearchEvent) => void] {
  const [actor, setActor] = useState<SearchActor | null>(null);
  const running = useRef<SearchActor | null>(null);
  const waiting = useRef<SearchEvent[] | null>(null);
  const actorsRef = useRef(actors);
  actorsRef.current = actors;

  const start = useCallback((checks: NonNullable<ReturnType<typeof searchChecks>>) => {
    const started = checks.startSearchActor(actorsRef.current());
    running.current = started;
    for (const event of waiting.current ?? []) started.send(event);
    waiting.current = null;
    setActor(started);
    return started;
  }, []);

  const send = useCallback(
    (event: SearchEvent) => {
      if (running.current) return running.current.send(event);
      const checks = searchChecks();
      if (checks) return start(checks).send(event);
      if (waiting.current) return void waiting.current.push(event);
      waiting.current = [event];
      void loadSearchChecks().then(start, () => {
        waiting.current = null; // the next event asks again
      });
    },
    [start],
  );
  useEffect(
    () => () => {
      running.current?.stop();
      running.current = null;
    },
    [],
  );

  const subscribe = useCallback(
    (changed: () => void) => {
      if (!actor) return () => {};
      const subscription = actor.subscribe(changed);
      return () => subscription.unsubscribe();
    },
    [actor],
  );
  const snapshot = useSyncExternalStore(
    subscribe,
    () => (actor?.getSnapshot() as SearchView | undefined) ?? START,
  );
  return [snapshot, send];
}
