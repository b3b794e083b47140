import type { AncillaryKind } from "@skyward/contracts/ancillaries";
import type { Language } from "@skyward/contracts/ids";
import type { Fare, Flight, PenaltyRule, Segment } from "@skyward/contracts/offers";
import { openPdf } from "./pdf.ts";
import { formatMoney } from "./ticket-pdf.ts";

/**
 * The traveller's itinerary (issue 24): the whole booking for every passenger, as the e-mail's text and HTML parts
 * and as a PDF, in the booking's language, branded with the agency's name and contacts.
 */

export interface ItineraryExtra {
  passenger_index: number;
  type: AncillaryKind;
  weight_kg: number | null;
  seat: string | null;
  segment_id: string;
  emd_number: string | null;
}

export interface Itinerary {
  locator: string;
  agency: { name: string; email: string | null; phone: string | null };
  note: string | null;
  passengers: { name: string; ticket_number: string | null }[];
  flights: Flight[];
  /** Baggage per segment and the fare's change and refund rules. */
  fare: Fare | null;
  extras: ItineraryExtra[];
}

const LABELS = {
  en: {
    subject: "Your itinerary, booking {locator}",
    title: "Itinerary",
    intro: "Here is your itinerary for booking {locator}.",
    note: "A message from your agent",
    locator: "Booking reference",
    passengers: "Passengers",
    ticket: "ticket",
    no_ticket: "no ticket yet",
    flights: "Flights",
    departure: "Departs",
    arrival: "Arrives",
    local: "local time",
    baggage: "Baggage",
    checked: "checked",
    carry_on: "carry-on",
    none: "none",
    extras: "Seats and extras",
    checked_bag: "Checked bag",
    carry_on_bag: "Cabin bag",
    seat: "Seat",
    emd: "EMD",
    rules: "Fare rules",
    change_before: "Changes before departure",
    change_after: "Changes after departure",
    refund_before: "Refunds before departure",
    refund_after: "Refunds after departure",
    fee: "allowed for {fee} per passenger",
    free: "allowed free of charge",
    not_permitted: "not permitted",
    attached: "Attached: this itinerary as a PDF and the receipt of each ticket and EMD.",
    contacts: "Your agency",
  },
  ua: {
    subject: "Ваш маршрут, бронювання {locator}",
    title: "Маршрут",
    intro: "Ось ваш маршрут за бронюванням {locator}.",
    note: "Повідомлення від вашого агента",
    locator: "Код бронювання",
    passengers: "Пасажири",
    ticket: "квиток",
    no_ticket: "квиток ще не виписано",
    flights: "Рейси",
    departure: "Виліт",
    arrival: "Приліт",
    local: "місцевий час",
    baggage: "Багаж",
    checked: "зареєстрований",
    carry_on: "ручна поклажа",
    none: "немає",
    extras: "Місця та додаткові послуги",
    checked_bag: "Зареєстрований багаж",
    carry_on_bag: "Ручна поклажа",
    seat: "Місце",
    emd: "EMD",
    rules: "Правила тарифу",
    change_before: "Зміни до вильоту",
    change_after: "Зміни після вильоту",
    refund_before: "Повернення до вильоту",
    refund_after: "Повернення після вильоту",
    fee: "дозволено за {fee} з пасажира",
    free: "дозволено безкоштовно",
    not_permitted: "не дозволено",
    attached: "У вкладенні: цей маршрут у PDF та квитанція кожного квитка й EMD.",
    contacts: "Ваша агенція",
  },
  pl: {
    subject: "Twój plan podróży, rezerwacja {locator}",
    title: "Plan podróży",
    intro: "Oto Twój plan podróży dla rezerwacji {locator}.",
    note: "Wiadomość od Twojego agenta",
    locator: "Kod rezerwacji",
    passengers: "Pasażerowie",
    ticket: "bilet",
    no_ticket: "bilet jeszcze niewystawiony",
    flights: "Loty",
    departure: "Wylot",
    arrival: "Przylot",
    local: "czas lokalny",
    baggage: "Bagaż",
    checked: "rejestrowany",
    carry_on: "podręczny",
    none: "brak",
    extras: "Miejsca i usługi dodatkowe",
    checked_bag: "Bagaż rejestrowany",
    carry_on_bag: "Bagaż podręczny",
    seat: "Miejsce",
    emd: "EMD",
    rules: "Zasady taryfy",
    change_before: "Zmiany przed wylotem",
    change_after: "Zmiany po wylocie",
    refund_before: "Zwroty przed wylotem",
    refund_after: "Zwroty po wylocie",
    fee: "dozwolone za {fee} od pasażera",
    free: "dozwolone bezpłatnie",
    not_permitted: "niedozwolone",
    attached: "W załączniku: ten plan podróży w PDF i potwierdzenie każdego biletu i EMD.",
    contacts: "Twoja agencja",
  },
  fr: {
    subject: "Votre itinéraire, réservation {locator}",
    title: "Itinéraire",
    intro: "Voici votre itinéraire pour la réservation {locator}.",
    note: "Un message de votre agent",
    locator: "Référence de réservation",
    passengers: "Passagers",
    ticket: "billet",
    no_ticket: "billet pas encore émis",
    flights: "Vols",
    departure: "Départ",
    arrival: "Arrivée",
    local: "heure locale",
    baggage: "Bagages",
    checked: "en soute",
    carry_on: "en cabine",
    none: "aucun",
    extras: "Sièges et services",
    checked_bag: "Bagage en soute",
    carry_on_bag: "Bagage cabine",
    seat: "Siège",
    emd: "EMD",
    rules: "Règles tarifaires",
    change_before: "Modifications avant le départ",
    change_after: "Modifications après le départ",
    refund_before: "Remboursements avant le départ",
    refund_after: "Remboursements après le départ",
    fee: "autorisés pour {fee} par passager",
    free: "autorisés sans frais",
    not_permitted: "non autorisés",
    attached: "En pièces jointes : cet itinéraire en PDF et le reçu de chaque billet et EMD.",
    contacts: "Votre agence",
  },
  es: {
    subject: "Su itinerario, reserva {locator}",
    title: "Itinerario",
    intro: "Este es su itinerario de la reserva {locator}.",
    note: "Un mensaje de su agente",
    locator: "Localizador",
    passengers: "Pasajeros",
    ticket: "billete",
    no_ticket: "billete aún no emitido",
    flights: "Vuelos",
    departure: "Salida",
    arrival: "Llegada",
    local: "hora local",
    baggage: "Equipaje",
    checked: "facturado",
    carry_on: "de mano",
    none: "ninguno",
    extras: "Asientos y servicios",
    checked_bag: "Equipaje facturado",
    carry_on_bag: "Equipaje de mano",
    seat: "Asiento",
    emd: "EMD",
    rules: "Reglas de la tarifa",
    change_before: "Cambios antes de la salida",
    change_after: "Cambios después de la salida",
    refund_before: "Reembolsos antes de la salida",
    refund_after: "Reembolsos después de la salida",
    fee: "permitidos por {fee} por pasajero",
    free: "permitidos sin cargo",
    not_permitted: "no permitidos",
    attached: "Adjuntos: este itinerario en PDF y el recibo de cada billete y EMD.",
    contacts: "Su agencia",
  },
} satisfies Record<Language, Record<string, string>>;
type Labels = (typeof LABELS)["en"];

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, key: string) => values[key] ?? "");

export const itinerarySubject = (it: Itinerary, language: Language) =>
  fill(LABELS[language].subject, { locator: it.locator });

/** A local airport time as tickets print it: the date and the clock where the flight is. */
const localTime = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)}`;

interface Block {
  heading: string;
  lines: string[];
}

/** The itinerary as headed blocks of lines: one source for the text, the HTML and the PDF. */
function blocks(it: Itinerary, language: Language): Block[] {
  const l: Labels = LABELS[language];
  const segments = it.flights.flatMap((f) => f.segments);
  const segmentName = (id: string) => {
    const s = segments.find((x) => x.id === id);
    return s ? `${s.carrier} ${s.flight_number} ${s.from.code}-${s.to.code}` : id;
  };
  const piece = (p: { pieces: number; weight_kg: number }) =>
    p.pieces > 0 ? `${p.pieces} × ${p.weight_kg} kg` : l.none;
  const segmentLines = (s: Segment) => {
    const baggage = it.fare?.fare_segments.find((f) => f.segment_id === s.id)?.baggage;
    return [
      `${s.carrier} ${s.flight_number} ${s.from.code} → ${s.to.code} (${s.carrier_name})`,
      `  ${l.departure}: ${localTime(s.departure_at)} ${l.local}, ${s.from.city} (${s.from.name})`,
      `  ${l.arrival}: ${localTime(s.arrival_at)} ${l.local}, ${s.to.city} (${s.to.name})`,
      ...(baggage
        ? [`  ${l.baggage}: ${l.checked} ${piece(baggage.checked)}; ${l.carry_on} ${piece(baggage.carry_on)}`]
        : []),
    ];
  };
  const service = (e: ItineraryExtra) => {
    const weight = e.weight_kg ? ` ${e.weight_kg} kg` : "";
    if (e.type === "seat") return `${l.seat} ${e.seat ?? ""}`.trim();
    return `${e.type === "checked_bag" ? l.checked_bag : l.carry_on_bag}${weight}`;
  };
  const rule = (rule: PenaltyRule) =>
    !rule.allowed
      ? l.not_permitted
      : rule.fee.amount === 0
        ? l.free
        : fill(l.fee, { fee: formatMoney(rule.fee, language) });
  const result: Block[] = [
    { heading: l.locator, lines: [it.locator] },
    {
      heading: l.passengers,
      lines: it.passengers.map(
        (p) => `${p.name} — ${p.ticket_number ? `${l.ticket} ${p.ticket_number}` : l.no_ticket}`,
      ),
    },
    { heading: l.flights, lines: segments.flatMap(segmentLines) },
  ];
  if (it.extras.length > 0)
    result.push({
      heading: l.extras,
      lines: it.extras.map(
        (e) =>
          `${it.passengers[e.passenger_index]?.name ?? ""}: ${service(e)}, ${segmentName(e.segment_id)}${
            e.emd_number ? ` — ${l.emd} ${e.emd_number}` : ""
          }`,
      ),
    });
  const penalty = it.fare?.penalty;
  if (penalty)
    result.push({
      heading: l.rules,
      lines: [
        `${l.change_before}: ${rule(penalty.change_before_departure)}.`,
        `${l.change_after}: ${rule(penalty.change_after_departure)}.`,
        `${l.refund_before}: ${rule(penalty.refund_before_departure)}.`,
        `${l.refund_after}: ${rule(penalty.refund_after_departure)}.`,
      ],
    });
  result.push({
    heading: l.contacts,
    lines: [it.agency.name, it.agency.email, it.agency.phone].filter((x): x is string => Boolean(x)),
  });
  return result;
}

export function itineraryText(it: Itinerary, language: Language): string {
  const l = LABELS[language];
  const parts = [fill(l.intro, { locator: it.locator })];
  if (it.note) parts.push(`${l.note}:\n${it.note}`);
  for (const b of blocks(it, language)) parts.push(`${b.heading}\n${b.lines.join("\n")}`);
  parts.push(l.attached);
  return `${parts.join("\n\n")}\n`;
}

/** Text made safe inside HTML (the mails' HTML parts). */
export const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

export function itineraryHtml(it: Itinerary, language: Language): string {
  const l = LABELS[language];
  const lang = language === "ua" ? "uk" : language;
  const section = (b: Block) =>
    `<h2 style="font-size:16px;margin:20px 0 6px">${escapeHtml(b.heading)}</h2>\n${b.lines
      .map((line) => `<p style="margin:2px 0">${escapeHtml(line)}</p>`)
      .join("\n")}`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(itinerarySubject(it, language))}</title></head>
<body style="font-family:Arial,sans-serif;color:#1a1a1a;max-width:640px">
<p style="font-size:20px;font-weight:bold;margin:0">${escapeHtml(it.agency.name)}</p>
<h1 style="font-size:22px">${escapeHtml(l.title)} ${escapeHtml(it.locator)}</h1>
<p>${escapeHtml(fill(l.intro, { locator: it.locator }))}</p>
${it.note ? `<blockquote style="border-left:3px solid #888;margin:12px 0;padding-left:10px"><strong>${escapeHtml(l.note)}</strong><br>${escapeHtml(it.note).replace(/\n/g, "<br>")}</blockquote>` : ""}
${blocks(it, language).map(section).join("\n")}
<p style="margin-top:20px;color:#555">${escapeHtml(l.attached)}</p>
</body></html>
`;
}

/** The itinerary as a PDF (pdf.ts, DejaVu Sans for every language's letters); resolves with its bytes. */
export function renderItineraryPdf(it: Itinerary, language: Language): Promise<Buffer> {
  const l = LABELS[language];
  const { doc, done } = openPdf({ title: `${l.title} ${it.locator}`, author: it.agency.name });
  doc.font("bold").fontSize(16).text(it.agency.name);
  doc.font("body").fontSize(9).fillColor("#555");
  for (const line of [it.agency.email, it.agency.phone]) if (line) doc.text(line);
  doc.moveDown().fillColor("#000");
  doc.font("bold").fontSize(20).text(`${l.title} ${it.locator}`);
  if (it.note) {
    doc.moveDown(0.5);
    doc.font("bold").fontSize(10).text(l.note);
    doc.font("body").fontSize(10).text(it.note);
  }
  for (const b of blocks(it, language)) {
    doc.moveDown(0.8);
    doc.font("bold").fontSize(13).text(b.heading);
    doc.font("body").fontSize(10);
    for (const line of b.lines) doc.text(line);
  }
  doc.end();
  return done;
}
