import type { RandomInt } from "./locator.ts";

/** A ticket (or EMD) number: the validating carrier's 3-digit accounting code and a 10-digit serial. */
const TICKET_NUMBER = /^(\d{3})(\d{10})$/;
const SERIAL_DIGITS = 10;

export function ticketNumber(accountingCode: string, serial: string): string {
  if (!/^\d{3}$/.test(accountingCode))
    throw new RangeError(`accounting code must be 3 digits: ${accountingCode}`);
  if (!/^\d{10}$/.test(serial)) throw new RangeError(`ticket serial must be 10 digits: ${serial}`);
  return `${accountingCode}${serial}`;
}

/** A fresh serial, digit by digit so it never passes through a float that could round. */
export function randomSerial(random: RandomInt): string {
  let serial = "";
  for (let i = 0; i < SERIAL_DIGITS; i++) serial += String(random(10));
  return serial;
}

export function parseTicketNumber(text: string): { accountingCode: string; serial: string } | null {
  const match = TICKET_NUMBER.exec(text);
  if (!match?.[1] || !match[2]) return null;
  return { accountingCode: match[1], serial: match[2] };
}

/** "566-2401234567", the way tickets are printed on itinerary receipts. */
export function formatTicketNumber(text: string): string {
  const parsed = parseTicketNumber(text);
  if (!parsed) throw new RangeError(`not a ticket number: ${text}`);
  return `${parsed.accountingCode}-${parsed.serial}`;
}
