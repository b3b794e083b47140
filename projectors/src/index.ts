import type { Projection } from "@skyward/infra/projections/projection";
import { agentNotifications } from "./agent-notifications/agent-notifications.ts";
import { balances } from "./balances/balances.ts";
import { bookings } from "./bookings/bookings.ts";
import { channels } from "./channels/channels.ts";
import { timeLimitNotices } from "./deadlines/time-limit-notices.ts";
import { directory } from "./directory/directory.ts";
import { invoices } from "./invoices/invoices.ts";
import { itineraryMails } from "./itinerary/itinerary-mails.ts";
import { sales } from "./sales/sales.ts";
import { travellers } from "./travellers/travellers.ts";

/** Every projection the product runs. */
export const projections: readonly Projection[] = [
  directory,
  channels,
  bookings,
  balances,
  sales,
  timeLimitNotices,
  itineraryMails,
  invoices,
  travellers,
  agentNotifications,
];
