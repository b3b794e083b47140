import { paidByText } from "@skyward/contracts/cards";
import type { Money } from "@skyward/contracts/money";
import type { Fare } from "@skyward/contracts/offers";
import type { Receipt } from "@skyward/contracts/sales";
import { zonedTime } from "@skyward/contracts/time-zone";
import { openPdf } from "./pdf.ts";

/**
 * The itinerary receipt a traveller gets for one ticket (written by pdf.ts). Text is set in DejaVu Sans, embedded from the npm
 * package `dejavu-fonts-ttf`: its glyphs cover the Latin of Polish, French and Spanish and the Cyrillic of Ukrainian.
 */

export type ReceiptLanguage = "en" | "ua" | "pl" | "fr" | "es";

const LABELS = {
  en: {
    title: "Itinerary receipt",
    passenger: "Passenger",
    loyalty: "Loyalty number",
    ssrs: "Special services",
    ticket: "Ticket number",
    locator: "Booking reference",
    issued: "Issued",
    flights: "Flights",
    departure: "Departure",
    arrival: "Arrival",
    baggage: "Baggage",
    checked: "Checked",
    carry_on: "Carry-on",
    none: "none",
    price: "Price",
    fare: "Fare",
    taxes: "Taxes",
    fees: "Fees",
    total: "Total",
    paid_by: "Paid by",
    balance: "Balance",
    agency: "Issued by",
    status: "Status",
    emd_title: "EMD receipt",
    emd_number: "EMD number",
    for_ticket: "For ticket",
    service: "Service",
    segment: "Flight",
    checked_bag: "Checked bag",
    carry_on_bag: "Cabin bag",
    seat: "Seat",
    amount: "Amount",
  },
  ua: {
    title: "Маршрутна квитанція",
    passenger: "Пасажир",
    loyalty: "Програма лояльності",
    ssrs: "Спеціальні послуги",
    ticket: "Номер квитка",
    locator: "Код бронювання",
    issued: "Виписано",
    flights: "Рейси",
    departure: "Виліт",
    arrival: "Приліт",
    baggage: "Багаж",
    checked: "Зареєстрований",
    carry_on: "Ручна поклажа",
    none: "немає",
    price: "Вартість",
    fare: "Тариф",
    taxes: "Такси",
    fees: "Збори",
    total: "Разом",
    paid_by: "Спосіб оплати",
    balance: "Баланс",
    agency: "Виписав",
    status: "Статус",
    emd_title: "Квитанція EMD",
    emd_number: "Номер EMD",
    for_ticket: "До квитка",
    service: "Послуга",
    segment: "Рейс",
    checked_bag: "Зареєстрований багаж",
    carry_on_bag: "Ручна поклажа",
    seat: "Місце",
    amount: "Сума",
  },
  pl: {
    title: "Potwierdzenie podróży",
    passenger: "Pasażer",
    loyalty: "Program lojalnościowy",
    ssrs: "Usługi specjalne",
    ticket: "Numer biletu",
    locator: "Kod rezerwacji",
    issued: "Wystawiono",
    flights: "Loty",
    departure: "Wylot",
    arrival: "Przylot",
    baggage: "Bagaż",
    checked: "Rejestrowany",
    carry_on: "Podręczny",
    none: "brak",
    price: "Cena",
    fare: "Taryfa",
    taxes: "Podatki",
    fees: "Opłaty",
    total: "Razem",
    paid_by: "Forma płatności",
    balance: "Saldo",
    agency: "Wystawił",
    status: "Status",
    emd_title: "Potwierdzenie EMD",
    emd_number: "Numer EMD",
    for_ticket: "Do biletu",
    service: "Usługa",
    segment: "Lot",
    checked_bag: "Bagaż rejestrowany",
    carry_on_bag: "Bagaż podręczny",
    seat: "Miejsce",
    amount: "Kwota",
  },
  fr: {
    title: "Mémo voyage",
    passenger: "Passager",
    loyalty: "Numéro de fidélité",
    ssrs: "Services spéciaux",
    ticket: "Numéro de billet",
    locator: "Référence de réservation",
    issued: "Émis le",
    flights: "Vols",
    departure: "Départ",
    arrival: "Arrivée",
    baggage: "Bagages",
    checked: "En soute",
    carry_on: "En cabine",
    none: "aucun",
    price: "Prix",
    fare: "Tarif",
    taxes: "Taxes",
    fees: "Frais",
    total: "Total",
    paid_by: "Payé par",
    balance: "Solde",
    agency: "Émis par",
    status: "Statut",
    emd_title: "Reçu EMD",
    emd_number: "Numéro d'EMD",
    for_ticket: "Pour le billet",
    service: "Service",
    segment: "Vol",
    checked_bag: "Bagage en soute",
    carry_on_bag: "Bagage cabine",
    seat: "Siège",
    amount: "Montant",
  },
  es: {
    title: "Recibo de itinerario",
    passenger: "Pasajero",
    loyalty: "Número de fidelización",
    ssrs: "Servicios especiales",
    ticket: "Número de billete",
    locator: "Localizador",
    issued: "Emitido",
    flights: "Vuelos",
    departure: "Salida",
    arrival: "Llegada",
    baggage: "Equipaje",
    checked: "Facturado",
    carry_on: "De mano",
    none: "ninguno",
    price: "Precio",
    fare: "Tarifa",
    taxes: "Impuestos",
    fees: "Cargos",
    total: "Total",
    paid_by: "Pagado con",
    balance: "Saldo",
    agency: "Emitido por",
    status: "Estado",
    emd_title: "Recibo de EMD",
    emd_number: "Número de EMD",
    for_ticket: "Del billete",
    service: "Servicio",
    segment: "Vuelo",
    checked_bag: "Equipaje facturado",
    carry_on_bag: "Equipaje de mano",
    seat: "Asiento",
    amount: "Importe",
  },
} satisfies Record<ReceiptLanguage, Record<string, string>>;

const STATUS = {
  en: { issued: "Issued", voided: "Voided", refunded: "Refunded", exchanged: "Exchanged" },
  ua: { issued: "Виписаний", voided: "Анульований", refunded: "Повернений", exchanged: "Обміняний" },
  pl: { issued: "Wystawiony", voided: "Anulowany", refunded: "Zwrócony", exchanged: "Wymieniony" },
  fr: { issued: "Émis", voided: "Annulé", refunded: "Remboursé", exchanged: "Échangé" },
  es: { issued: "Emitido", voided: "Anulado", refunded: "Reembolsado", exchanged: "Cambiado" },
} satisfies Record<ReceiptLanguage, Record<string, string>>;

const LOCALE: Record<ReceiptLanguage, string> = {
  en: "en-GB",
  ua: "uk-UA",
  pl: "pl-PL",
  fr: "fr-FR",
  es: "es-ES",
};

/** What the receipt shows: its contract (contracts/src/sales.ts), also answered as data (`format=data`). */
export type { Receipt };

/**
 * Each language's formatter for each currency, with the currency's decimals: made once per process (issue 26: two
 * Intl.NumberFormat made for every amount printed were a tenth of a document's main-thread time).
 */
const moneyFormats = new Map<string, { digits: number; format: Intl.NumberFormat }>();

function moneyFormat(currency: string, language: ReceiptLanguage) {
  const key = `${language} ${currency}`;
  let known = moneyFormats.get(key);
  if (!known) {
    const digits =
      new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ??
      2;
    const format = new Intl.NumberFormat(LOCALE[language], {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    known = { digits, format };
    moneyFormats.set(key, known);
  }
  return known;
}

/** An amount for people, with the currency's own decimals ("1 234,50 UAH" in Ukrainian). */
export function formatMoney(money: Money, language: ReceiptLanguage): string {
  const { digits, format } = moneyFormat(money.currency, language);
  return `${format.format(money.amount / 10 ** digits)} ${money.currency}`;
}

/** A local airport time as printed on tickets: the date and the clock time where the flight is. */
const localTime = (at: string) => `${at.slice(0, 10)} ${at.slice(11, 16)}`;

function baggageOf(fare: Fare | null, segmentId: string, l: (typeof LABELS)[ReceiptLanguage]): string {
  const fs = fare?.fare_segments.find((s) => s.segment_id === segmentId);
  if (!fs) return "";
  const { checked, carry_on } = fs.baggage;
  const piece = (p: { pieces: number; weight_kg: number }) =>
    p.pieces > 0 ? `${p.pieces} × ${p.weight_kg} kg` : l.none;
  return `${l.checked}: ${piece(checked)}; ${l.carry_on}: ${piece(carry_on)}`;
}

/** The service an EMD paid, as the traveller reads it: "Checked bag 23 kg", "Seat 1F". */
function serviceOf(
  service: NonNullable<Receipt["emd"]>["service"],
  l: (typeof LABELS)[ReceiptLanguage],
): string {
  switch (service.type) {
    case "checked_bag":
      return service.weight_kg ? `${l.checked_bag} ${service.weight_kg} kg` : l.checked_bag;
    case "carry_on":
      return service.weight_kg ? `${l.carry_on_bag} ${service.weight_kg} kg` : l.carry_on_bag;
    case "seat":
      return service.seat ? `${l.seat} ${service.seat}` : l.seat;
  }
}

/** Renders the receipt; resolves with the PDF's bytes. */
export function renderReceipt(r: Receipt, language: ReceiptLanguage): Promise<Buffer> {
  const l = LABELS[language];
  const { doc, done } = openPdf({
    title: `${r.kind === "emd" ? l.emd_title : l.title} ${r.ticket_number}`,
    author: "Skyward",
  });

  // Agency block in place of a logo (agencies have no logo on file yet): name, company, agent and contacts.
  doc
    .font("bold")
    .fontSize(16)
    .text(r.agency.name ?? "Skyward", { continued: false });
  doc.font("body").fontSize(9).fillColor("#555");
  for (const line of [r.agency.company, r.agency.agent, r.agency.email, r.agency.phone])
    if (line) doc.text(line);
  doc.moveDown().fillColor("#000");

  doc
    .font("bold")
    .fontSize(20)
    .text(r.kind === "emd" ? l.emd_title : l.title);
  doc.moveDown(0.5);
  const field = (label: string, value: string) => {
    doc.font("body").fontSize(10).fillColor("#555").text(`${label}: `, { continued: true });
    doc.font("bold").fillColor("#000").text(value);
  };
  const status = STATUS[language][r.status as keyof (typeof STATUS)["en"]] ?? r.status;
  if (r.kind === "emd") {
    // An EMD is no ticket and carries no fare's baggage: it names what it paid, for whom and with which ticket.
    field(l.passenger, r.passenger);
    field(l.emd_number, r.ticket_number);
    if (r.emd?.ticket_number) field(l.for_ticket, r.emd.ticket_number);
    field(l.locator, r.locator);
    field(l.issued, zonedTime(new Date(r.issued_at), r.time_zone));
    field(l.status, status);
    doc.moveDown();
    if (r.emd) field(l.service, serviceOf(r.emd.service, l));
    const s = r.emd?.segment;
    if (s)
      field(
        l.segment,
        `${s.carrier} ${s.flight_number}  ${s.from.code} → ${s.to.code}  ${localTime(s.departure_at)}`,
      );
    doc.moveDown();
    field(l.amount, formatMoney(r.price.total, language));
    if (r.paid_by) field(l.paid_by, paidByText(r.paid_by, l.balance));
    doc.end();
    return done;
  }
  field(l.passenger, r.passenger);
  if (r.loyalty) field(l.loyalty, `${r.loyalty.carrier} ${r.loyalty.number}`);
  if (r.ssrs.length > 0) field(l.ssrs, r.ssrs.join(", "));
  field(l.ticket, r.ticket_number);
  field(l.locator, r.locator);
  field(l.issued, zonedTime(new Date(r.issued_at), r.time_zone));
  field(l.status, status);

  doc.moveDown();
  doc.font("bold").fontSize(13).text(l.flights);
  doc.moveDown(0.3);
  for (const flight of r.flights) {
    for (const s of flight.segments) {
      doc
        .font("bold")
        .fontSize(11)
        .text(`${s.carrier} ${s.flight_number}  ${s.from.code} → ${s.to.code}   ${s.carrier_name}`);
      doc.font("body").fontSize(10);
      doc.text(`${l.departure}: ${localTime(s.departure_at)}  ${s.from.city}, ${s.from.name}`);
      doc.text(`${l.arrival}: ${localTime(s.arrival_at)}  ${s.to.city}, ${s.to.name}`);
      const baggage = baggageOf(r.fare, s.id, l);
      if (baggage) doc.text(`${l.baggage}: ${baggage}`);
      doc.moveDown(0.5);
    }
  }
  if (r.flights.length === 0) doc.font("body").fontSize(10).text(`${r.carrier} ${r.route}`);

  doc.moveDown();
  doc.font("bold").fontSize(13).text(l.price);
  doc.moveDown(0.3);
  field(l.fare, formatMoney(r.price.fare, language));
  field(l.taxes, formatMoney(r.price.taxes, language));
  field(l.fees, formatMoney(r.price.fees, language));
  field(l.total, formatMoney(r.price.total, language));
  if (r.paid_by) field(l.paid_by, paidByText(r.paid_by, l.balance));
  doc.end();
  return done;
}
