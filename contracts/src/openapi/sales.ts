import { z } from "zod";
import {
  AnalyticsQuery,
  AnalyticsResponse,
  ReceiptDataResponse,
  SaleId,
  SalesExportQuery,
  SalesListResponse,
  SalesQuery,
  TicketDownloadQuery,
} from "../sales.ts";
import { type DocumentedRoute, errors, invalid, unauthorized, XLSX } from "./shared.ts";

/** The documented routes tagged "Sales" (the assembled document keeps the order in ../openapi.ts). */
export const salesRoutes: readonly DocumentedRoute[] = [
  {
    method: "get",
    path: "/sales",
    operationId: "listSales",
    summary:
      "Sold tickets and EMDs, filtered (ticket[text], ticket[date_from], ticket[date_to]), paged, with totals",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    query: SalesQuery,
    responses: {
      200: {
        description: "A page of sale lines",
        schema: SalesListResponse,
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/analytics",
    operationId: "salesAnalytics",
    summary: "Sales figures of a period (analytics[date_from], analytics[date_to]) against the period before",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    query: AnalyticsQuery,
    responses: {
      200: {
        description: "The figures",
        schema: AnalyticsResponse,
      },
      401: unauthorized,
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/sales/{id}",
    operationId: "ticketReceipt",
    summary:
      "A sold ticket's (or EMD's) receipt as PDF (format=pdf, the default) or as data (format=data), with the agent's own " +
      "prices when given (custom_prices[fare], custom_prices[taxes], custom_prices[fees])",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    params: { id: SaleId },
    query: TicketDownloadQuery,
    responses: {
      200: {
        description: "The receipt: a PDF file (Content-Disposition names it), or its data as JSON",
        mediaType: "application/pdf",
        schema: ReceiptDataResponse,
      },
      401: unauthorized,
      404: errors("No such sale within the caller's scope"),
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/sales/export",
    operationId: "exportSales",
    summary:
      "The sales lines of a filter (ticket[text], ticket[date_from], ticket[date_to]) as an Excel spreadsheet; " +
      "too many lines are built by a job and e-mailed as a link (GET /sales/reports/{id})",
    tag: "Sales",
    secured: true,
    minPosition: "read_models",
    query: SalesExportQuery,
    responses: {
      200: {
        description: "The spreadsheet, streamed without a length",
        mediaType: XLSX,
        headers: {
          "X-Sales-Lines": {
            description: "How many sales lines the file holds",
            required: true,
            schema: { type: "string", pattern: "^[0-9]+$" },
          },
          "X-Sales-Estimated-Bytes": {
            description: "The file's estimated size, to show the download's progress",
            required: true,
            schema: { type: "string", pattern: "^[0-9]+$" },
          },
        },
      },
      400: errors("No sales lines match the filter (`no_tickets`)"),
      401: unauthorized,
      413: errors("More lines than an export answers at once: the report is e-mailed (`report_by_email`)"),
      422: invalid,
    },
  },
  {
    method: "get",
    path: "/sales/reports/{id}",
    operationId: "salesReport",
    summary: "An e-mailed sales report's spreadsheet, for the person who asked for it, while it is kept",
    tag: "Sales",
    secured: true,
    params: { id: z.uuid() },
    responses: {
      200: { description: "The spreadsheet", mediaType: XLSX },
      401: unauthorized,
      404: errors("No such report of the caller's, or it expired"),
    },
  },
];
