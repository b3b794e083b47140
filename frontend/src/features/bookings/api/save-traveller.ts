import type { PassengerToBook } from "@skyward/contracts/bookings";
import type { TravellerAnswer } from "@skyward/contracts/travellers";
import type { z } from "zod";
import { api } from "../../../lib/api-client.ts";

/** `POST /travellers`: a booked passenger kept as a traveller of the booking's company (409 when already kept). */
export async function saveTraveller(
  companyId: string,
  passenger: PassengerToBook,
): Promise<z.infer<typeof TravellerAnswer>> {
  const { data } = await api.post<z.infer<typeof TravellerAnswer>>("/travellers", {
    company_id: companyId,
    traveller: {
      first_name: passenger.first_name,
      last_name: passenger.last_name,
      date_of_birth: passenger.date_of_birth,
      gender: passenger.gender,
      documents: [passenger.document],
      loyalty: passenger.loyalty ? [passenger.loyalty] : [],
      ssrs: passenger.ssrs ?? [],
    },
  });
  return data;
}
