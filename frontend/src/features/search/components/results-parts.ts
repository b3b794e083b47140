// What the search page shows only once there is a result: one chunk, fetched as a search starts rather than with
// the page (search-page.tsx), so an empty search page loads without it.
export { ActiveFilters } from "./active-filters.tsx";
export { BookingForm } from "./booking-form.tsx";
export { FareCalendarPanel } from "./fare-calendar.tsx";
export { FiltersPanel } from "./filters-panel.tsx";
export { ItineraryCard } from "./itinerary-card.tsx";
export { OfferDetailsModal } from "./offer-details-modal.tsx";
export { ResultsLayout } from "./results-layout.tsx";
export { ResultsList } from "./results-list.tsx";
