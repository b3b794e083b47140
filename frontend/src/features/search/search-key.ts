import { isMultiCity } from "@skyward/contracts/journey";
import type { JourneySearchRequest } from "@skyward/contracts/offers";

/** Equal for the same search whatever else the address holds. */
export function searchKey(request: JourneySearchRequest | null): string {
  if (!request) return "";
  const { passengers, cabin } = request;
  if (isMultiCity(request)) return JSON.stringify([request.slices, passengers, cabin]);
  const { origin, destination, departure_date, return_date } = request;
  return JSON.stringify([origin, destination, departure_date, return_date ?? null, passengers, cabin]);
}
