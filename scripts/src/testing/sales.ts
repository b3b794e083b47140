import http from "node:http";
import ExcelJS from "exceljs";
import type { HttpResponse } from "./http-client.ts";

/** Sales test helpers: binary downloads (xlsx, PDF) with a session cookie, and reading them back. */

/** The session cookie a sign-in response set, to send with downloads the JSON client would read as text. */
export function sessionCookie(signIn: HttpResponse): string {
  const cookies = signIn.headers.getSetCookie();
  if (cookies.length === 0) throw new Error("the sign-in answer set no cookie");
  return cookies.map((c) => c.split(";")[0]).join("; ");
}

export interface Download {
  status: number;
  headers: http.IncomingHttpHeaders;
  bytes: Buffer;
  /** The body as JSON when it is (an error envelope). */
  json: { errors?: { status: string; code: string; title: string; detail?: string }[] } | null;
}

/** GET `path` with the cookie, keeping the body's bytes. */
export function download(baseUrl: string, cookie: string, path: string): Promise<Download> {
  return new Promise((resolve, reject) => {
    const req = http.get(new URL(path, baseUrl), { headers: { cookie, accept: "*/*" } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("error", reject);
      res.on("end", () => {
        const bytes = Buffer.concat(chunks);
        const json = res.headers["content-type"]?.includes("json")
          ? JSON.parse(bytes.toString("utf8"))
          : null;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, bytes, json });
      });
    });
    req.on("error", reject);
  });
}

/** A workbook read back with exceljs (the same library, reading: what Excel and LibreOffice open). */
export async function readWorkbook(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}

/** A text run of a PDF as a reader places it: its text, where its baseline starts (from the page's bottom left), its width. */
export interface PdfRun {
  str: string;
  x: number;
  y: number;
  width: number;
}

/** A PDF read with pdfjs-dist (as a PDF reader reads it): its title, and every page's text runs in order. */
export async function readPdf(bytes: Buffer): Promise<{ title: string | null; pages: PdfRun[][] }> {
  // pdfjs-dist 6 uses Promise.withResolvers (Node 22); Node 20, which this project supports, lacks it.
  const promise = Promise as unknown as { withResolvers?: () => unknown };
  promise.withResolvers ??= () => {
    let resolve: unknown;
    let reject: unknown;
    const p = new Promise((a, b) => {
      resolve = a;
      reject = b;
    });
    return { promise: p, resolve, reject };
  };
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const { info } = (await pdf.getMetadata()) as { info: { Title?: string } };
  const pages: PdfRun[][] = [];
  for (let n = 1; n <= pdf.numPages; n += 1) {
    const content = await (await pdf.getPage(n)).getTextContent();
    pages.push(
      content.items.flatMap((item) =>
        "str" in item
          ? [
              {
                str: item.str,
                x: item.transform[4] as number,
                y: item.transform[5] as number,
                width: item.width,
              },
            ]
          : [],
      ),
    );
  }
  await pdf.cleanup();
  return { title: info.Title ?? null, pages };
}

/** Every text run of a PDF, page by page, joined with spaces (pdfjs-dist, as a PDF reader extracts it). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const { pages } = await readPdf(bytes);
  return pages.map((runs) => runs.map((run) => run.str).join(" ")).join("\n");
}
