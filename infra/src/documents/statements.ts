import type { Language } from "@skyward/contracts/ids";
import type { InvoiceDocument, Statement } from "@skyward/contracts/invoices";
import { minorDigits } from "@skyward/contracts/money";
import { loadExcelJS, moneyFormat } from "../sales/workbook.ts";
import { type PdfDocument, renderPdf } from "./pdf.ts";
import { formatMoney } from "./ticket-pdf.ts";

/** A company's monthly statement (PDF and xlsx) and an invoice or credit note (PDF), in five languages. */

const LABELS = {
  en: {
    statement: "Statement",
    month: "Month",
    company: "Company",
    opening: "Opening balance",
    closing: "Closing balance",
    charged: "Charged",
    credited: "Credited",
    date: "Date",
    movement: "Movement",
    amount: "Amount",
    balance: "Balance",
    locator: "Booking",
    documents: "Documents",
    invoice: "Invoice",
    credit_note: "Credit note",
    number: "Number",
    issued: "Issued",
    sold: "Sale date",
    passenger: "Passenger",
    route: "Route",
    document: "Document",
    total: "Total",
    agency: "Issued by",
  },
  ua: {
    statement: "Виписка",
    month: "Місяць",
    company: "Компанія",
    opening: "Вхідний залишок",
    closing: "Вихідний залишок",
    charged: "Списано",
    credited: "Зараховано",
    date: "Дата",
    movement: "Операція",
    amount: "Сума",
    balance: "Баланс",
    locator: "Бронювання",
    documents: "Документи",
    invoice: "Рахунок",
    credit_note: "Кредит-нота",
    number: "Номер",
    issued: "Виставлено",
    sold: "Дата продажу",
    passenger: "Пасажир",
    route: "Маршрут",
    document: "Документ",
    total: "Разом",
    agency: "Виставив",
  },
  pl: {
    statement: "Wyciąg",
    month: "Miesiąc",
    company: "Firma",
    opening: "Saldo początkowe",
    closing: "Saldo końcowe",
    charged: "Obciążono",
    credited: "Uznano",
    date: "Data",
    movement: "Operacja",
    amount: "Kwota",
    balance: "Saldo",
    locator: "Rezerwacja",
    documents: "Dokumenty",
    invoice: "Faktura",
    credit_note: "Faktura korygująca",
    number: "Numer",
    issued: "Wystawiono",
    sold: "Data sprzedaży",
    passenger: "Pasażer",
    route: "Trasa",
    document: "Dokument",
    total: "Razem",
    agency: "Wystawca",
  },
  fr: {
    statement: "Relevé",
    month: "Mois",
    company: "Société",
    opening: "Solde d'ouverture",
    closing: "Solde de clôture",
    charged: "Débité",
    credited: "Crédité",
    date: "Date",
    movement: "Mouvement",
    amount: "Montant",
    balance: "Solde",
    locator: "Réservation",
    documents: "Documents",
    invoice: "Facture",
    credit_note: "Avoir",
    number: "Numéro",
    issued: "Émis le",
    sold: "Date de vente",
    passenger: "Passager",
    route: "Trajet",
    document: "Document",
    total: "Total",
    agency: "Émis par",
  },
  es: {
    statement: "Extracto",
    month: "Mes",
    company: "Empresa",
    opening: "Saldo inicial",
    closing: "Saldo final",
    charged: "Cargado",
    credited: "Abonado",
    date: "Fecha",
    movement: "Movimiento",
    amount: "Importe",
    balance: "Saldo",
    locator: "Reserva",
    documents: "Documentos",
    invoice: "Factura",
    credit_note: "Nota de crédito",
    number: "Número",
    issued: "Emitida",
    sold: "Fecha de venta",
    passenger: "Pasajero",
    route: "Ruta",
    document: "Documento",
    total: "Total",
    agency: "Emitida por",
  },
} satisfies Record<Language, Record<string, string>>;

const pdf = (title: string, author: string, draw: (doc: PdfDocument) => void): Promise<Buffer> =>
  renderPdf({ title, author }, draw);

const money = (amount: number, currency: string, language: Language) =>
  formatMoney({ amount, currency }, language);

export function statementFileName(s: Statement, extension: "pdf" | "xlsx"): string {
  return `statement-${s.month}-${s.company_id}.${extension}`;
}

export function renderStatementPdf(s: Statement, agency: string, language: Language): Promise<Buffer> {
  const l = LABELS[language];
  return pdf(`${l.statement} ${s.month}`, agency, (doc) => {
    doc.font("bold").fontSize(16).text(agency);
    doc.moveDown(0.5);
    doc.font("bold").fontSize(20).text(`${l.statement} ${s.month}`);
    doc.font("body").fontSize(10);
    doc.text(`${l.company}: ${s.company_name}`);
    doc.text(`${l.opening}: ${money(s.opening_balance, s.currency, language)}`);
    doc.text(`${l.charged}: ${money(s.charged, s.currency, language)}`);
    doc.text(`${l.credited}: ${money(s.credited, s.currency, language)}`);
    doc.font("bold").text(`${l.closing}: ${money(s.closing_balance, s.currency, language)}`);
    doc.moveDown();
    for (const m of s.movements) {
      doc
        .font("body")
        .fontSize(9)
        .text(
          `${m.at.slice(0, 16).replace("T", " ")}  ${m.kind}  ${money(m.amount, s.currency, language)}  ${l.balance}: ${money(m.balance_after, s.currency, language)}${m.locator ? `  ${l.locator} ${m.locator}` : ""}${m.documents.length > 0 ? `  ${l.documents}: ${m.documents.join(", ")}` : ""}`,
        );
    }
  });
}

export async function renderStatementXlsx(s: Statement, language: Language): Promise<Buffer> {
  const l = LABELS[language];
  const ExcelJS = await loadExcelJS();
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(`${l.statement} ${s.month}`);
  const format = moneyFormat(s.currency);
  const digits = 10 ** minorDigits(s.currency);
  const value = (minor: number) => minor / digits;
  sheet.addRow([l.company, s.company_name]);
  sheet.addRow([l.month, s.month]);
  sheet.addRow([l.opening, value(s.opening_balance), s.currency]).getCell(2).numFmt = format;
  sheet.addRow([]);
  const header = sheet.addRow([l.date, l.movement, l.amount, l.balance, l.locator, l.documents]);
  header.font = { bold: true };
  for (const m of s.movements) {
    const row = sheet.addRow([
      new Date(m.at),
      m.kind,
      value(m.amount),
      value(m.balance_after),
      m.locator ?? "",
      m.documents.join(", "),
    ]);
    row.getCell(1).numFmt = "yyyy-mm-dd hh:mm";
    row.getCell(3).numFmt = format;
    row.getCell(4).numFmt = format;
  }
  sheet.addRow([]);
  sheet.addRow([l.charged, value(s.charged), s.currency]).getCell(2).numFmt = format;
  sheet.addRow([l.credited, value(s.credited), s.currency]).getCell(2).numFmt = format;
  sheet.addRow([l.closing, value(s.closing_balance), s.currency]).getCell(2).numFmt = format;
  sheet.columns.forEach((column, i) => {
    column.width = [18, 16, 14, 14, 10, 40][i] ?? 12;
  });
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export function renderInvoicePdf(
  d: InvoiceDocument,
  agency: string,
  company: string,
  language: Language,
): Promise<Buffer> {
  const l = LABELS[language];
  const title = `${d.kind === "invoice" ? l.invoice : l.credit_note} ${d.number_text}`;
  return pdf(title, agency, (doc) => {
    doc.font("bold").fontSize(16).text(agency);
    doc.moveDown(0.5);
    doc.font("bold").fontSize(20).text(title);
    doc.font("body").fontSize(10);
    doc.text(`${l.company}: ${company}`);
    doc.text(`${l.issued}: ${d.issued_at.slice(0, 10)}`);
    doc.text(`${l.sold}: ${d.sold_at.slice(0, 10)}`);
    doc.text(`${l.locator}: ${d.locator}`);
    doc.text(`${l.document}: ${d.document_number} (${d.sale_kind})`);
    doc.text(`${l.passenger}: ${d.passenger_name}`);
    doc.text(`${l.route}: ${d.route}`);
    doc.moveDown();
    doc.font("bold").text(`${l.total}: ${money(d.amount, d.currency, language)}`);
  });
}
