// The PDF writer every document is written with (issue 26: our own, in place of pdfkit): text wrapped within the
// margins, a word longer than a line cut, a continued text on the same line, pages added as the text needs them,
// and every character a reader copies out the one written; read back as a PDF reader reads it (pdfjs-dist).
import { describe, expect, it } from "@jest/globals";
import { renderPdf } from "@skyward/infra/documents/pdf";
import { renderStatementPdf } from "@skyward/infra/documents/statements";
import { companyStatement } from "./testing/receipt-fixture.ts";
import { type PdfRun, readPdf } from "./testing/sales.ts";

const PAGE = { width: 595.28, height: 841.89, margin: 50 };
const words = (text: string) => text.split(/\s+/).filter(Boolean);
/** Every run stays within the page's margins. */
function withinMargins(runs: readonly PdfRun[]) {
  for (const run of runs) {
    expect(run.x).toBeGreaterThanOrEqual(PAGE.margin - 0.01);
    expect(run.x + run.width).toBeLessThanOrEqual(PAGE.width - PAGE.margin + 0.01);
    expect(run.y).toBeGreaterThanOrEqual(PAGE.margin - 0.01);
    expect(run.y).toBeLessThanOrEqual(PAGE.height - PAGE.margin);
  }
}

describe("the PDF writer", () => {
  it("wraps a paragraph at spaces within the margins, line under line, and cuts a word longer than a line", async () => {
    const paragraph = "Довга примітка агента для мандрівника, ".repeat(30).trim();
    const long = "X".repeat(150);
    const pdf = await renderPdf({ title: "Примітка ABC123", author: "Dnipro Travel" }, (doc) => {
      doc.font("body").fontSize(10).text(paragraph);
      // An empty text takes no space; the long word's line follows the paragraph's last.
      doc.text("");
      doc.text(`${long} end`);
    });
    const { title, pages } = await readPdf(pdf);
    expect(title).toBe("Примітка ABC123");
    expect(pages).toHaveLength(1);
    const runs = pages[0] as PdfRun[];
    withinMargins(runs);
    // One run per line, each starting at the left margin, each below the one before.
    expect(runs.length).toBeGreaterThan(5);
    const lineHeight = ((928.2 + 235.8) / 1000) * 10;
    for (const [i, run] of runs.entries()) {
      expect(run.x).toBeCloseTo(PAGE.margin, 2);
      if (i > 0) expect((runs[i - 1] as PdfRun).y - run.y).toBeCloseTo(lineHeight, 0);
    }
    // Every word is there, in order, none split across lines but the one longer than a line.
    const paragraphRuns = runs.filter((r) => !r.str.startsWith("X") && r.str !== "end");
    expect(words(paragraphRuns.map((r) => r.str).join(" "))).toEqual(words(paragraph));
    const cut = runs.filter((r) => r.str.includes("X"));
    expect(cut.length).toBeGreaterThan(1);
    expect(cut.map((r) => r.str).join("")).toBe(`${long} end`);
    // A wrapped line is as full as it can be: the next line's first word would not have fitted on it.
    expect((runs[0] as PdfRun).x + (runs[0] as PdfRun).width).toBeGreaterThan(PAGE.width - PAGE.margin - 60);
  });

  it("goes on after a continued text on the same line, in another face and colour, then starts a new line", async () => {
    const pdf = await renderPdf({ title: "Receipt", author: "Skyward" }, (doc) => {
      doc.font("body").fontSize(10).fillColor("#555").text("Passenger: ", { continued: true });
      doc.font("bold").fillColor("#000").text("ŁUKASIEWICZ/ŻANETA");
      doc.font("body").text("Next line");
    });
    // (A reader ends a line with an empty run.)
    const runs = ((await readPdf(pdf)).pages[0] as PdfRun[]).filter((r) => r.str !== "");
    // A reader gives the label's trailing space a run of its own.
    const [label, space, value, next] = runs;
    expect(runs.map((r) => r.str)).toEqual(["Passenger:", " ", "ŁUKASIEWICZ/ŻANETA", "Next line"]);
    expect(value?.y).toBeCloseTo(label?.y as number, 3);
    expect(space?.x).toBeCloseTo((label?.x as number) + (label?.width as number), 1);
    expect(value?.x).toBeCloseTo((space?.x as number) + (space?.width as number), 1);
    expect(next?.x).toBeCloseTo(PAGE.margin, 2);
    expect(next?.y).toBeLessThan(label?.y as number);
    // The value in the bold face, the label in the body face: two fonts embedded, no more.
    expect(pdf.toString("latin1").match(/\/FontFile2 /g)).toHaveLength(2);
  });

  it("adds pages as the text needs them, every line within the margins and in order", async () => {
    const movements = Array.from({ length: 130 }, (_, i) => ({
      at: `2026-10-${String(1 + (i % 28)).padStart(2, "0")}T10:00:00Z`,
      kind: "charge",
      amount: -(1000 + i),
      balance_after: -(1000 + i) * (i + 1),
      locator: `LOC${String(i).padStart(3, "0")}`,
      reason: null,
      documents: [],
    }));
    const pdf = await renderStatementPdf(companyStatement(movements), "Vistula Podróże", "pl");
    const { pages } = await readPdf(pdf);
    expect(pages.length).toBeGreaterThan(1);
    for (const runs of pages) withinMargins(runs);
    const locators = pages.flat().flatMap((r) => /LOC\d{3}/.exec(r.str)?.[0] ?? []);
    expect(locators).toEqual(movements.map((m) => m.locator));
    // The second page starts at its top margin.
    const second = pages[1] as PdfRun[];
    expect((second[0] as PdfRun).y).toBeGreaterThan(PAGE.height - PAGE.margin - 20);
  });

  it("leaves out control characters and lone surrogates, and copies a character its faces lack as the replacement character", async () => {
    const pdf = await renderPdf({ title: "Bad \u0000 input \ud800", author: "x" }, (doc) => {
      doc.text("before\u0000\u0007\ud800after\tTAB 漢 end");
    });
    const { pages } = await readPdf(pdf);
    const text = pages
      .flat()
      .map((r) => r.str)
      .join(" ");
    expect(text.replace(/\s+/g, " ")).toBe("beforeafter TAB \ufffd end");
  });

  it("writes the same document to the same bytes but for its moment of creation", async () => {
    const draw = (doc: Parameters<Parameters<typeof renderPdf>[1]>[0]) =>
      doc.font("bold").fontSize(16).text("Vistula Podróże").font("body").fontSize(10).text("Łódź");
    const [a, b] = await Promise.all([
      renderPdf({ title: "T", author: "A" }, draw),
      renderPdf({ title: "T", author: "A" }, draw),
    ]);
    const undated = (pdf: Buffer) => pdf.toString("latin1").replace(/\(D:\d{14}Z\)/g, "");
    expect(undated(a)).toBe(undated(b));
    expect(undated(a)).not.toBe(
      undated(await renderPdf({ title: "T", author: "A" }, (doc) => doc.text("Lodz"))),
    );
  });
});
