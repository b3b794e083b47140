import { type FormEvent, useEffect, useState } from "react";
import { flushSync } from "react-dom";

type Checks = typeof import("./checks.ts");

let loaded: Checks | null = null;
let loading: Promise<Checks> | null = null;

/** The search page's checks (checks.ts), fetched once; a failed fetch is tried again by the next caller. */
export function loadSearchChecks(): Promise<Checks> {
  loading ??= import("./checks.ts").then(
    (checks) => {
      loaded = checks;
      return checks;
    },
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The checks if they have loaded, else null. */
export const searchChecks = (): Checks | null => loaded;

/**
 * The checks when the caller has something to check (`needed`): null until they load (the caller shows the page's
 * outline meanwhile), then the checks. Without anything to check (an empty address, no recent search) nothing is
 * fetched.
 */
export function useSearchChecks(needed: boolean): Checks | null {
  const [checks, setChecks] = useState(loaded);
  useEffect(() => {
    if (!needed || checks) return;
    let current = true;
    void loadSearchChecks().then(
      (module) => {
        if (current) setChecks(module);
      },
      () => undefined, // the next render that needs them asks again
    );
    return () => {
      current = false;
    };
  }, [needed, checks]);
  return checks ?? loaded;
}

/**
 * A form's submit that checks with the search checks: the first submit waits for them (usually fetched already, when
 * the form took the focus), later ones run at once.
 */
export function submitWithChecks(submit: (event?: FormEvent<HTMLFormElement>) => void) {
  return (event: FormEvent<HTMLFormElement>) => {
    if (loaded) return submit(event);
    event.preventDefault();
    // The submit after the wait still names its form (focusFirstError moves the focus within it): React's event has
    // let go of its currentTarget by then.
    const form = event.currentTarget;
    const later = {
      currentTarget: form,
      target: form,
      nativeEvent: event.nativeEvent,
      preventDefault: () => undefined,
      stopPropagation: () => undefined,
    } as unknown as FormEvent<HTMLFormElement>;
    // Drawn at once, as a submit in the event itself is: the errors are on screen before the focus moves to them.
    void loadSearchChecks().then(
      () => flushSync(() => submit(later)),
      () => undefined, // the agent submits again, which fetches them again
    );
  };
}
