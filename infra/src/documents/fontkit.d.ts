/** The one function of fontkit (the font parser) the documents use; the package ships no types. */
declare module "fontkit" {
  /** Parses a font file's bytes. */
  export function create(buffer: Uint8Array, postscriptName?: string): unknown;
}
