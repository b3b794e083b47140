import { useEffect, useState } from "react";

/** The time now, renewed every `everyMs`: countdowns on screen move on by themselves. */
export function useTick(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
