import { Box, Button, Center } from "@mantine/core";
import type { FareFamilyCode, OriginDestination } from "@skyward/contracts/offers";
import { memo, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ItineraryCard } from "./itinerary-card.tsx";

/** How many itineraries are rendered at first, and how many more each time the list's end comes near. */
export const RESULTS_WINDOW = 30;

/**
 * The same itinerary keeps the same object across a result's filtered and sorted answers (the server sends each
 * answer afresh): the memoized cards then skip every row a filter or a sort did not change.
 */
function useStableOptions(resultId: string, options: OriginDestination[]): OriginDestination[] {
  const cache = useRef<{ resultId: string; byId: Map<string, OriginDestination> }>({
    resultId,
    byId: new Map(),
  });
  if (cache.current.resultId !== resultId) cache.current = { resultId, byId: new Map() };
  const { byId } = cache.current;
  return options.map((option) => {
    const known = byId.get(option.id);
    if (known) return known;
    byId.set(option.id, option);
    return option;
  });
}

/**
 * The itineraries of a result (issue 27's interaction budget: 300 of them answer a filter or a sort within 200 ms):
 * memoized cards, and a window of them that grows as the agent scrolls near its end (or asks for more), so a
 * result of hundreds renders, lays out and answers clicks as one of a few dozen does.
 */
export const ResultsList = memo(function ResultsList({
  resultId,
  options,
  passengers,
  cheapest,
  families,
  onSelect,
  onDetails,
}: {
  /** The search result (unfiltered) the itineraries belong to: a new search starts from the first window again. */
  resultId: string;
  options: OriginDestination[];
  passengers: number;
  cheapest: number | null;
  families: FareFamilyCode[];
  onSelect: (fareId: string) => void;
  onDetails: (fareId: string) => void;
}) {
  const { t } = useTranslation("search");
  const stable = useStableOptions(resultId, options);
  const [shown, setShown] = useState({ resultId, count: RESULTS_WINDOW });
  const count = shown.resultId === resultId ? shown.count : RESULTS_WINDOW;
  const more = () => setShown({ resultId, count: count + RESULTS_WINDOW });
  const rest = stable.length - count;

  // Near the end of the window, the next one renders (before the agent reaches it).
  const sentinel = useRef<HTMLDivElement>(null);
  const moreRef = useRef(more);
  moreRef.current = more;
  useEffect(() => {
    const element = sentinel.current;
    if (!element || rest <= 0 || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) moreRef.current();
      },
      { rootMargin: "800px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [rest]);

  return (
    <>
      {stable.slice(0, count).map((option) => (
        <ItineraryCard
          key={option.id}
          option={option}
          passengers={passengers}
          cheapest={cheapest}
          families={families}
          onSelect={onSelect}
          onDetails={onDetails}
        />
      ))}
      {rest > 0 ? (
        <Center ref={sentinel}>
          <Box>
            <Button variant="light" size="xs" onClick={more}>
              {t("results.show_more", { count: Math.min(rest, RESULTS_WINDOW), total: rest })}
            </Button>
          </Box>
        </Center>
      ) : null}
    </>
  );
});
