import type { Writable } from "node:stream";
import { paidByText } from "@skyward/contracts/cards";
import { minorDigits } from "@skyward/contracts/money";
import type { SaleLine } from "@skyward/contracts/sales";
import { DEFAULT_TIME_ZONE, wallClockDate } from "@skyward/contracts/time-zone";

/**
 * The sales-report spreadsheet (xlsx), written with exceljs's streaming writer: each row is committed to the output
 * as it comes, so memory stays flat however many lines there are. Typed cells (dates as dates, money as numbers
 * with the currency's format), a frozen header with filters, column widths, and a totals row per currency.
 */

export type ReportLanguage = "en" | "ua" | "pl" | "fr" | "es";

type Label =
  | "sheet"
  | "sold_at"
  | "kind"
  | "status"
  | "document_number"
  | "original_document"
  | "locator"
  | "passenger_name"
  | "carrier"
  | "route"
  | "departure_at"
  | "agent_name"
  | "company_name"
  | "agency_name"
  | "base_fare"
  | "taxes"
  | "agency_markup"
  | "company_markup"
  | "transaction_fee"
  | "penalty"
  | "total"
  | "currency"
  | "paid_by"
  | "balance"
  | "totals";

const LABELS: Record<ReportLanguage, Record<Label, string>> = {
  en: {
    sheet: "Sales",
    sold_at: "Date",
    kind: "Document",
    status: "Status",
    document_number: "Number",
    original_document: "Original ticket",
    locator: "Locator",
    passenger_name: "Passenger",
    carrier: "Carrier",
    route: "Route",
    departure_at: "Departure",
    agent_name: "Agent",
    company_name: "Company",
    agency_name: "Agency",
    base_fare: "Fare",
    taxes: "Taxes",
    agency_markup: "Agency markup",
    company_markup: "Company markup",
    transaction_fee: "Fee",
    penalty: "Penalty",
    total: "Total",
    currency: "Currency",
    paid_by: "Paid by",
    balance: "Balance",
    totals: "Total",
  },
  ua: {
    sheet: "Продажі",
    sold_at: "Дата",
    kind: "Документ",
    status: "Статус",
    document_number: "Номер",
    original_document: "Початковий квиток",
    locator: "Код бронювання",
    passenger_name: "Пасажир",
    carrier: "Перевізник",
    route: "Маршрут",
    departure_at: "Виліт",
    agent_name: "Агент",
    company_name: "Компанія",
    agency_name: "Агенція",
    base_fare: "Тариф",
    taxes: "Такси",
    agency_markup: "Націнка агенції",
    company_markup: "Націнка компанії",
    transaction_fee: "Збір",
    penalty: "Штраф",
    total: "Разом",
    currency: "Валюта",
    paid_by: "Спосіб оплати",
    balance: "Баланс",
    totals: "Підсумок",
  },
  pl: {
    sheet: "Sprzedaż",
    sold_at: "Data",
    kind: "Dokument",
    status: "Status",
    document_number: "Numer",
    original_document: "Bilet pierwotny",
    locator: "Kod rezerwacji",
    passenger_name: "Pasażer",
    carrier: "Przewoźnik",
    route: "Trasa",
    departure_at: "Wylot",
    agent_name: "Agent",
    company_name: "Firma",
    agency_name: "Agencja",
    base_fare: "Taryfa",
    taxes: "Podatki",
    agency_markup: "Marża agencji",
    company_markup: "Marża firmy",
    transaction_fee: "Opłata",
    penalty: "Kara",
    total: "Razem",
    currency: "Waluta",
    paid_by: "Forma płatności",
    balance: "Saldo",
    totals: "Suma",
  },
  fr: {
    sheet: "Ventes",
    sold_at: "Date",
    kind: "Document",
    status: "Statut",
    document_number: "Numéro",
    original_document: "Billet d'origine",
    locator: "Référence",
    passenger_name: "Passager",
    carrier: "Compagnie",
    route: "Itinéraire",
    departure_at: "Départ",
    agent_name: "Agent",
    company_name: "Société",
    agency_name: "Agence",
    base_fare: "Tarif",
    taxes: "Taxes",
    agency_markup: "Marge agence",
    company_markup: "Marge société",
    transaction_fee: "Frais",
    penalty: "Pénalité",
    total: "Total",
    currency: "Devise",
    paid_by: "Payé par",
    balance: "Solde",
    totals: "Total",
  },
  es: {
    sheet: "Ventas",
    sold_at: "Fecha",
    kind: "Documento",
    status: "Estado",
    document_number: "Número",
    original_document: "Billete original",
    locator: "Localizador",
    passenger_name: "Pasajero",
    carrier: "Aerolínea",
    route: "Ruta",
    departure_at: "Salida",
    agent_name: "Agente",
    company_name: "Empresa",
    agency_name: "Agencia",
    base_fare: "Tarifa",
    taxes: "Impuestos",
    agency_markup: "Margen de agencia",
    company_markup: "Margen de empresa",
    transaction_fee: "Cargo",
    penalty: "Penalización",
    total: "Total",
    currency: "Moneda",
    paid_by: "Pagado con",
    balance: "Saldo",
    totals: "Total",
  },
};

/** Document kinds and statuses as the report names them. */
const WORDS: Record<ReportLanguage, Record<string, string>> = {
  en: {
    ticket: "Ticket",
    emd: "EMD",
    void: "Void",
    refund: "Refund",
    exchange: "Exchange",
    issued: "Issued",
    voided: "Voided",
    refunded: "Refunded",
    exchanged: "Exchanged",
  },
  ua: {
    ticket: "Квиток",
    emd: "EMD",
    void: "Анулювання",
    refund: "Повернення",
    exchange: "Обмін",
    issued: "Виписаний",
    voided: "Анульований",
    refunded: "Повернений",
    exchanged: "Обміняний",
  },
  pl: {
    ticket: "Bilet",
    emd: "EMD",
    void: "Anulowanie",
    refund: "Zwrot",
    exchange: "Wymiana",
    issued: "Wystawiony",
    voided: "Anulowany",
    refunded: "Zwrócony",
    exchanged: "Wymieniony",
  },
  fr: {
    ticket: "Billet",
    emd: "EMD",
    void: "Annulation",
    refund: "Remboursement",
    exchange: "Échange",
    issued: "Émis",
    voided: "Annulé",
    refunded: "Remboursé",
    exchanged: "Échangé",
  },
  es: {
    ticket: "Billete",
    emd: "EMD",
    void: "Anulación",
    refund: "Reembolso",
    exchange: "Cambio",
    issued: "Emitido",
    voided: "Anulado",
    refunded: "Reembolsado",
    exchanged: "Cambiado",
  },
};

const MONEY_COLUMNS = [
  "base_fare",
  "taxes",
  "agency_markup",
  "company_markup",
  "transaction_fee",
  "penalty",
  "total",
] as const;

const COLUMNS: { key: Label; width: number }[] = [
  { key: "sold_at", width: 24 },
  { key: "kind", width: 14 },
  { key: "status", width: 14 },
  { key: "document_number", width: 16 },
  { key: "original_document", width: 16 },
  { key: "locator", width: 10 },
  { key: "passenger_name", width: 28 },
  { key: "carrier", width: 9 },
  { key: "route", width: 16 },
  { key: "departure_at", width: 22 },
  { key: "agent_name", width: 22 },
  { key: "company_name", width: 22 },
  { key: "agency_name", width: 22 },
  ...MONEY_COLUMNS.map((key) => ({ key, width: 14 })),
  { key: "currency", width: 9 },
  { key: "paid_by", width: 22 },
];

/**
 * exceljs, loaded on the first workbook a process writes: importing it costs about 0.6 s of CPU (plain Node on these
 * machines), which every start of the app paid, and every test that starts one, for a file most never write.
 */
export const loadExcelJS = async () => (await import("exceljs")).default;

/** Excel's number format for amounts of a currency: thousands, its decimals, the code after the number. */
export function moneyFormat(currency: string): string {
  const digits = minorDigits(currency);
  const number = `#,##0${digits > 0 ? `.${"0".repeat(digits)}` : ""}`;
  return `${number} "${currency}";-${number} "${currency}"`;
}

const toMajor = (minor: number, currency: string) => minor / 10 ** minorDigits(currency);

/** What a spreadsheet reads as the start of a formula (OWASP, CSV injection), tab and carriage return included. */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * A name or code as a text cell that stays text: one starting like a formula gets a leading apostrophe (the OWASP
 * CSV-injection advice), so the sheet saved as CSV, or opened by a program that ignores cell types, shows the text
 * after the apostrophe instead of running it.
 */
export function textCell(value: string): string;
export function textCell(value: string | null): string | null;
export function textCell(value: string | null): string | null {
  return value !== null && FORMULA_START.test(value) ? `'${value}` : value;
}

/**
 * About how many bytes the workbook of `lines` lines takes (measured: 131-133 bytes a line compressed, and the
 * parts every workbook has), so a download can show its progress before the end of a stream of unknown length.
 */
export const WORKBOOK_FIXED_BYTES = 8_000;
export const WORKBOOK_BYTES_PER_LINE = 132;
export const estimatedWorkbookBytes = (lines: number) =>
  WORKBOOK_FIXED_BYTES + WORKBOOK_BYTES_PER_LINE * lines;

export interface WorkbookSummary {
  lines: number;
}

/**
 * Writes the lines to `out` as an xlsx workbook; resolves when the file is complete. A date cell has no zone: the
 * Date column holds the wall clock in `timeZone` (the agency's), named in its header, beside the local departures.
 */
export async function writeSalesWorkbook(
  lines: AsyncIterable<SaleLine>,
  out: Writable,
  language: ReportLanguage = "en",
  timeZone: string = DEFAULT_TIME_ZONE,
): Promise<WorkbookSummary> {
  const label = LABELS[language];
  const words = WORDS[language];
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = "Skyward";
  const sheet = workbook.addWorksheet(label.sheet, {
    views: [{ state: "frozen", ySplit: 1, xSplit: 0 }],
  });
  sheet.columns = COLUMNS.map(({ key, width }) => ({
    header: key === "sold_at" ? `${label.sold_at} (${timeZone})` : label[key],
    key,
    width,
  }));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: COLUMNS.length } };
  const header = sheet.getRow(1);
  header.font = { bold: true };
  header.commit();

  const totals = new Map<string, Record<(typeof MONEY_COLUMNS)[number], number>>();
  let count = 0;
  for await (const line of lines) {
    count += 1;
    const row = sheet.addRow({
      sold_at: wallClockDate(new Date(line.sold_at), timeZone),
      kind: words[line.kind] ?? line.kind,
      status: words[line.status] ?? line.status,
      document_number: textCell(line.document_number),
      original_document: textCell(line.original_document),
      locator: textCell(line.locator),
      passenger_name: textCell(line.passenger_name),
      carrier: textCell(line.carrier),
      route: textCell(line.route),
      departure_at: textCell(line.departure_at),
      agent_name: textCell(line.agent_name),
      company_name: textCell(line.company_name),
      agency_name: textCell(line.agency_name),
      ...Object.fromEntries(MONEY_COLUMNS.map((k) => [k, toMajor(line[k], line.currency)])),
      currency: line.currency,
      paid_by: line.paid_by ? paidByText(line.paid_by, label.balance) : null,
    });
    row.getCell("sold_at").numFmt = "yyyy-mm-dd hh:mm";
    const format = moneyFormat(line.currency);
    for (const k of MONEY_COLUMNS) row.getCell(k).numFmt = format;
    row.commit();
    const sum = totals.get(line.currency) ?? {
      base_fare: 0,
      taxes: 0,
      agency_markup: 0,
      company_markup: 0,
      transaction_fee: 0,
      penalty: 0,
      total: 0,
    };
    for (const k of MONEY_COLUMNS) sum[k] += line[k];
    totals.set(line.currency, sum);
  }
  // One totals row per currency, summed in minor units (exact), after the lines the filter selects.
  for (const [currency, sum] of [...totals].sort(([a], [b]) => a.localeCompare(b))) {
    const row = sheet.addRow({
      sold_at: label.totals,
      ...Object.fromEntries(MONEY_COLUMNS.map((k) => [k, toMajor(sum[k], currency)])),
      currency,
    });
    row.font = { bold: true };
    const format = moneyFormat(currency);
    for (const k of MONEY_COLUMNS) row.getCell(k).numFmt = format;
    row.commit();
  }
  sheet.commit();
  await workbook.commit();
  return { lines: count };
}

/** The report's file name: the period it covers. */
export function salesReportFileName(dateFrom: string | undefined, dateTo: string | undefined): string {
  return `sales-report_${dateFrom ?? "start"}_${dateTo ?? "today"}.xlsx`;
}
