import { airportProperName } from "@skyward/contracts/place-names-airports";
import { useCallback } from "react";
import { useSiteLanguage } from "./i18n.ts";
import { useCityName } from "./place-names.ts";

interface NamedAirport {
  code: string;
  /** The airport data's name, in English. */
  name: string;
  /** The airport data's city, in English. */
  city: string;
}

/**
 * Airports named in the interface language: in English the airport data's own name; in the others the city as that
 * language writes it (CLDR) and the airport's proper name ("Київ Boryspil", "Varsovie Chopin"), never the English
 * words around it ("International Airport"). `proper` is the proper name alone, empty when the city says it all.
 */
export function useAirportName(): {
  label: (airport: NamedAirport) => string;
  proper: (airport: NamedAirport) => string;
} {
  const language = useSiteLanguage();
  const cityName = useCityName();
  const proper = useCallback(
    (airport: NamedAirport) =>
      language === "en" ? airport.name : airportProperName(airport.name, airport.city),
    [language],
  );
  const label = useCallback(
    (airport: NamedAirport) => {
      if (language === "en") return airport.name;
      const own = airportProperName(airport.name, airport.city);
      const city = cityName(airport.code, airport.city);
      return own ? `${city} ${own}` : city;
    },
    [language, cityName],
  );
  return { label, proper };
}
